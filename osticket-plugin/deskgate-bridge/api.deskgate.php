<?php
require_once INCLUDE_DIR . 'class.api.php';
require_once INCLUDE_DIR . 'class.ticket.php';
require_once INCLUDE_DIR . 'class.client.php';
require_once __DIR__ . '/erase-user.php';
require_once __DIR__ . '/ticket-changes.php';

/**
 * POST api/deskgate/{tickets,reply,close,account-confirmation,erase-user}.json (and the
 * ticket changes of ticket-changes.php). Every answer is JSON: {ticket_id, number,
 * entry_id} on success, {error, message[, field]} otherwise. osTicket's own objects do the
 * work (Ticket::create, Ticket::postReply, Ticket::setStatus) as the agent `staff_id` names.
 */
class DeskgateBridgeApi extends ApiController {
    use DeskgateTicketChanges;

    /** Errors of osTicket's key check (requireApiKey) as JSON, without logging the key. */
    public function onFatalError($code, $error) {
        $this->fail($code, $code == 401 ? 'unauthorized' : 'error', $error);
    }

    function create() {
        global $thisstaff, $cfg;
        $this->authenticate();
        $body = $this->body();
        $staff = $this->agent($body);
        $user = User::lookup($this->id($body, 'user_id', true));
        if (!$user)
            $this->fail(400, 'invalid_field', 'No user has this id.', 'user_id');
        $subject = $this->text($body, 'subject', true);
        $message = $this->text($body, 'message', true);

        $topic = null;
        if (($topicId = $this->id($body, 'topic_id')) && !($topic = Topic::lookup($topicId)))
            $this->fail(400, 'invalid_field', 'No help topic has this id.', 'topic_id');
        if (($deptId = $this->id($body, 'dept_id')) && !Dept::lookup($deptId))
            $this->fail(400, 'invalid_field', 'No department has this id.', 'dept_id');
        if (($slaId = $this->id($body, 'sla_id')) && !SLA::lookup($slaId))
            $this->fail(400, 'invalid_field', 'No SLA plan has this id.', 'sla_id');
        if (($statusId = $this->id($body, 'status_id'))) {
            $status = TicketStatus::lookup($statusId);
            if (!$status || !in_array($status->getState(), array('open', 'closed')))
                $this->fail(400, 'invalid_field', 'No open or closed status has this id.', 'status_id');
        }
        if (($priorityId = $this->id($body, 'priority_id')) && !Priority::lookup($priorityId))
            $this->fail(400, 'invalid_field', 'No priority has this id.', 'priority_id');
        $ip = $this->ip($body);

        // The department the ticket will be in, as Ticket::create chooses it.
        $ticketDept = $deptId ?: ($topic ? $topic->getDeptId() : 0) ?: $cfg->getDefaultDeptId();
        // A role the agent really has there (its primary department's or an extended access):
        // Staff::getRole falls back to a create-only role for any other department.
        $roles = $staff->getRoles();
        $role = $roles[$ticketDept] ?? null;
        if (!$role || !$role->hasPerm(Ticket::PERM_CREATE))
            $this->fail(403, 'forbidden', 'The agent may not open tickets in this department.');

        $vars = array(
            'uid' => $user->getId(),
            'email' => (string) $user->getEmail(),
            'name' => (string) $user->getName(),
            'subject' => $subject,
            // A text body: osTicket stores it HTML-escaped (format 'text').
            'message' => new TextThreadEntryBody($message),
            'source' => 'API',
        );
        foreach (array('topicId' => $topicId, 'deptId' => $deptId, 'slaId' => $slaId,
                'statusId' => $statusId, 'priorityId' => $priorityId) as $name => $value) {
            if ($value)
                $vars[$name] = $value;
        }
        if ($ip)
            $vars['ip'] = $ip;

        $thisstaff = $staff;
        $errors = array();
        $ticket = Ticket::create($vars, $errors, 'api');
        if (!$ticket || $errors)
            $this->refuseOsticket($errors, 'The ticket could not be created.');
        $entry = $ticket->getThread()->getLastMessage();
        $this->answer(201, $ticket, $entry);
    }

    function reply() {
        global $thisstaff;
        $this->authenticate();
        $body = $this->body();
        $staff = $this->agent($body);
        $ticket = $this->ticket($body);
        $message = $this->text($body, 'message', true);
        $ip = $this->ip($body);
        if (!$ticket->checkStaffPerm($staff, Ticket::PERM_REPLY))
            $this->fail(403, 'forbidden', 'The agent may not reply to tickets in this department.');
        if (Banlist::isBanned($ticket->getEmail()))
            $this->fail(409, 'banned', "The ticket's e-mail address is banned; osTicket does not reply to it.");

        $thisstaff = $staff;
        $vars = array('response' => new TextThreadEntryBody($message), 'reply-to' => 'all');
        if ($ip)
            $vars['ip_address'] = $ip;
        $errors = array();
        if (!($entry = $ticket->postReply($vars, $errors)))
            $this->refuseOsticket($errors, 'The reply could not be posted.');
        $this->answer(200, $ticket, $entry);
    }

    function close() {
        global $thisstaff;
        $this->authenticate();
        $body = $this->body();
        $staff = $this->agent($body);
        $ticket = $this->ticket($body);
        $note = $this->text($body, 'note', false);
        $reply = $this->text($body, 'reply', false);
        if ($note !== null && $reply !== null)
            $this->fail(400, 'invalid_field', 'Give a note or a reply, not both.', 'reply');
        $status = $this->closedStatus($body);
        $ip = $this->ip($body);

        if (!$ticket->checkStaffPerm($staff, Ticket::PERM_CLOSE))
            $this->fail(403, 'forbidden', 'The agent may not close tickets in this department.');
        if ($reply !== null && !$ticket->checkStaffPerm($staff, Ticket::PERM_REPLY))
            $this->fail(403, 'forbidden', 'The agent may not reply to tickets in this department.');
        if ($ticket->isClosed())
            $this->fail(409, 'not_closeable', 'The ticket is already closed.');
        if (($closeable = $ticket->isCloseable()) !== true)
            $this->fail(409, 'not_closeable', Format::striptags($closeable));

        $thisstaff = $staff;
        $errors = array();
        $entry = null;
        if ($reply !== null) {
            // The panel's "reply and set status".
            $vars = array('response' => new TextThreadEntryBody($reply), 'reply-to' => 'all',
                'reply_status_id' => $status->getId());
            if ($ip)
                $vars['ip_address'] = $ip;
            if (!($entry = $ticket->postReply($vars, $errors)))
                $this->refuseOsticket($errors, 'The reply could not be posted.');
        } else {
            // The panel's status action: the comment becomes an internal note, escaped here
            // because setStatus takes HTML.
            $comments = $note === null ? '' : nl2br(Format::htmlchars($note));
            if (!$ticket->setStatus($status, $comments, $errors))
                $this->refuseOsticket($errors, 'The ticket could not be closed.');
            if ($note !== null)
                $entry = ThreadEntry::objects()->filter(array(
                    'thread_id' => $ticket->getThreadId(), 'type' => 'N'))
                    ->order_by('-id')->first();
        }
        $ticket = Ticket::lookup($ticket->getId());
        if (!$ticket->isClosed())
            $this->fail(409, 'not_closeable', 'osTicket did not close the ticket.');
        $this->answer(200, $ticket, $entry);
    }

    /**
     * osTicket's own confirmation mail for a pending client-portal account deskgate's user/add
     * made (UserAccount::sendConfirmEmail, the mail the portal's registration sends): its link
     * (pwreset.php?token=…) confirms the account and signs the person in. Only for an account
     * still pending: a confirmed one is never mailed again from here.
     */
    function sendAccountConfirmation() {
        $this->authenticate();
        $body = $this->body();
        $userId = $this->id($body, 'user_id', true);
        $account = ClientAccount::lookup(array('user_id' => $userId));
        if (!$account)
            $this->fail(404, 'not_found', 'No client-portal account has this user id.');
        if ($account->isConfirmed())
            $this->fail(409, 'already_confirmed', 'The account is confirmed already; no mail was sent.');
        if (!$account->sendConfirmEmail())
            $this->fail(502, 'not_sent', "osTicket could not send the confirmation mail (no default e-mail or no 'registration-client' page).");
        $this->emit(200, array('user_id' => (int) $userId, 'mail' => 'sent'));
    }

    /**
     * Erases a user (deskgate decision 344): with `anonymise_tickets` their tickets stay, as the
     * placeholder user's, without their name, address, words or attachments; then osTicket's
     * own User::delete. One database transaction; the agent needs osTicket's user.delete.
     */
    function eraseUser() {
        global $thisstaff;
        $this->authenticate();
        $body = $this->body();
        $staff = $this->agent($body);
        $user = User::lookup($this->id($body, 'user_id', true));
        if (!$user)
            $this->fail(404, 'not_found', 'No user has this id.');
        $anonymise = ($body['anonymise_tickets'] ?? false) === true;
        if (!$staff->hasPerm(User::PERM_DELETE))
            $this->fail(403, 'forbidden', 'The agent may not delete users.');
        if (DeskgateUserErasure::isPlaceholder($user))
            $this->fail(409, 'placeholder', 'This is the user erased users\' tickets belong to.');
        $thisstaff = $staff;
        $erasure = new DeskgateUserErasure($user);
        if (!$anonymise && $erasure->ticketCount())
            $this->fail(409, 'has_tickets', sprintf('The user is named by %d ticket(s).', $erasure->ticketCount()));
        db_autocommit(false);
        try {
            $erased = $erasure->run();
            if (!db_query('COMMIT'))
                throw new DeskgateErasureFailed('the commit failed');
        } catch (Throwable $e) {
            db_query('ROLLBACK');
            db_autocommit(true);
            // Only deskgate's own messages: a database error's text may quote the data.
            $this->fail(500, 'not_erased', 'osTicket did not erase the user; nothing changed: '
                . ($e instanceof DeskgateErasureFailed ? $e->getMessage() : 'an error in osTicket (' . get_class($e) . ')'));
        }
        db_autocommit(true);
        $this->emit(200, $erased);
    }

    private function authenticate() {
        $key = $this->requireApiKey();
        if (!$key->canCreateTickets())
            $this->fail(401, 'unauthorized', 'API key not authorized');
        if (!in_array((int) $key->getId(), DeskgateBridgePlugin::$allowedKeyIds, true))
            $this->fail(403, 'key_not_allowed',
                'This API key is not on the deskgate bridge\'s allow-list (Admin panel → Manage → Plugins → deskgate bridge → its instance).');
        return $key;
    }

    private function body() {
        $body = json_decode(file_get_contents('php://input'), true);
        if (!is_array($body) || array_is_list($body) && $body)
            $this->fail(400, 'invalid_json', 'The body must be a JSON object.');
        return $body;
    }

    /** A positive integer field (a number or a string of digits); 0 when absent and optional. */
    private function id($body, $name, $required=false) {
        $value = $body[$name] ?? null;
        if ($value === null) {
            if ($required)
                $this->fail(400, 'invalid_field', "$name is required.", $name);
            return 0;
        }
        if (is_int($value) && $value > 0)
            return $value;
        if (is_string($value) && ctype_digit($value) && (int) $value > 0 && strlen($value) <= 10)
            return (int) $value;
        $this->fail(400, 'invalid_field', "$name must be a positive integer.", $name);
    }

    /** A text field: a non-blank string; null when absent and optional. */
    private function text($body, $name, $required) {
        $value = $body[$name] ?? null;
        if ($value === null && !$required)
            return null;
        if (!is_string($value) || trim($value) === '')
            $this->fail(400, 'invalid_field', "$name must be a non-empty string.", $name);
        return $value;
    }

    private function ip($body) {
        $ip = $body['ip'] ?? null;
        if ($ip !== null && (!is_string($ip) || !Validator::is_ip($ip)))
            $this->fail(400, 'invalid_field', 'ip must be an IPv4 or IPv6 address.', 'ip');
        return $ip;
    }

    /** The agent `staff_id` names: it must exist and be active. */
    private function agent($body) {
        $staff = Staff::lookup($this->id($body, 'staff_id', true));
        if (!$staff)
            $this->fail(400, 'invalid_field', 'No agent has this id.', 'staff_id');
        if (!$staff->isActive())
            $this->fail(403, 'agent_inactive', 'The agent is not active.');
        return $staff;
    }

    private function ticket($body) {
        $ticket = Ticket::lookup($this->id($body, 'ticket_id', true));
        if (!$ticket)
            $this->fail(404, 'not_found', 'No ticket has this id.');
        return $ticket;
    }

    /** status_id if given (a status whose state is closed), else the first closed status. */
    private function closedStatus($body) {
        if (($statusId = $this->id($body, 'status_id'))) {
            $status = TicketStatus::lookup($statusId);
            if (!$status || $status->getState() !== 'closed')
                $this->fail(400, 'invalid_field', 'status_id must name a status whose state is closed.', 'status_id');
            return $status;
        }
        $status = TicketStatus::objects()->filter(array('state' => 'closed'))->order_by('id')->first();
        if (!$status)
            $this->fail(409, 'not_closeable', 'osTicket has no closed status.');
        return $status;
    }

    private function refuseOsticket($errors, $fallback) {
        $code = ($errors['errno'] ?? 0) == 403 ? 403 : 400;
        $message = Format::striptags($errors['err'] ?? '') ?: $fallback;
        $field = null;
        foreach ($errors as $name => $error) {
            if ($name === 'err' || $name === 'errno')
                continue;
            $field = $field ?: $name;
            $message .= ' ' . Format::striptags(is_array($error) ? implode(' ', $error) : (string) $error);
        }
        $this->fail($code, $code == 403 ? 'denied' : 'refused', trim($message), $field);
    }

    private function answer($code, $ticket, $entry) {
        $this->emit($code, array(
            'ticket_id' => (int) $ticket->getId(),
            'number' => (string) $ticket->getNumber(),
            'entry_id' => $entry ? (int) $entry->getId() : null,
        ));
    }

    private function fail($code, $error, $message, $field=null, $extra=array()) {
        $this->abandonChange();
        $body = array('error' => $error, 'message' => $message);
        if ($field !== null)
            $body['field'] = $field;
        $this->emit($code, $body + $extra);
    }

    // Not Http::response: it answers 500 for any code it does not list, 409 among them.
    private function emit($code, $body) {
        $json = json_encode($body, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE);
        http_response_code($code);
        header('Content-Type: application/json; charset=UTF-8');
        header('Content-Length: ' . strlen($json));
        echo $json;
        exit;
    }
}
