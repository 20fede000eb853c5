<?php
/**
 * POST api/deskgate/{note,status,assign,transfer,update}.json (deskgate issue 35, decisions
 * 420–424): working a ticket through osTicket's own methods, as the staff panel calls them,
 * acting as the agent `staff_id` names with the permission its real role in the ticket's
 * department gives. Each change runs in one database transaction that starts by locking the
 * ticket's row (SELECT … FOR UPDATE): `if_unmodified_since` is compared under that lock, so
 * two changes cannot both pass the check. Answers {ticket_id, number, entry_id, changed,
 * updated}; a change that changes nothing answers changed:false and writes nothing.
 */
trait DeskgateTicketChanges {

    /** Whether fail() must roll back: a change's transaction is open. */
    private $changeTransaction = false;

    function note() {
        $this->authenticate();
        $body = $this->body();
        $staff = $this->agent($body);
        $note = $this->text($body, 'note', true);
        $title = $this->optionalString($body, 'title');
        $ip = $this->ip($body);
        list($ticket, $since) = $this->lockTicket($body);
        // The panel posts a note with view access alone (scp/tickets.php 'postnote').
        if (!$ticket->checkStaffPerm($staff))
            $this->fail(403, 'forbidden', 'The agent may not see tickets in this department.');
        $this->refuseConflict($since, $body);

        $this->actAs($staff);
        $vars = array('note' => new TextThreadEntryBody($note), 'title' => $title ?? '');
        if ($ip)
            $vars['ip_address'] = $ip;
        $errors = array();
        if (!($entry = $ticket->postNote($vars, $errors, $staff)))
            $this->refuseChange($errors, 'The note could not be posted.');
        $this->changed($ticket, $entry);
    }

    function status() {
        $this->authenticate();
        $body = $this->body();
        $staff = $this->agent($body);
        $status = TicketStatus::lookup($this->id($body, 'status_id', true));
        if (!$status || !in_array($status->getState(), array('open', 'closed'), true))
            $this->fail(400, 'invalid_field', 'status_id must name a status whose state is open or closed.', 'status_id');
        $comments = $this->optionalString($body, 'comments');
        list($ticket, $since) = $this->lockTicket($body);
        $role = $this->realRole($staff, $ticket);
        // scp/ajax.php tickets/{id}/status: closing needs ticket.close; reopening ticket.close
        // or ticket.create.
        $allowed = $status->getState() === 'closed'
            ? $role && $role->hasPerm(Ticket::PERM_CLOSE)
            : $role && ($role->hasPerm(Ticket::PERM_CLOSE) || $role->hasPerm(Ticket::PERM_CREATE));
        if (!$allowed)
            $this->fail(403, 'forbidden', $status->getState() === 'closed'
                ? 'The agent may not close tickets in this department.'
                : 'The agent may not reopen tickets in this department.');
        $this->refuseConflict($since, $body);
        if ($ticket->getStatusId() == $status->getId())
            $this->unchanged($ticket);
        if ($status->getState() === 'closed' && ($closeable = $ticket->isCloseable()) !== true)
            // As close.json: deskgate answers 409 not_closeable (open tasks, missing fields).
            $this->fail(409, 'not_closeable', Format::striptags($closeable));

        $this->actAs($staff);
        $before = $this->lastEntryId($ticket);
        $errors = array();
        // As the panel: the comment becomes an internal note "Status Changed" (HTML).
        $html = $comments === null ? '' : nl2br(Format::htmlchars($comments));
        if (!$ticket->setStatus($status, $html, $errors))
            $this->refuseChange($errors, 'osTicket did not change the status.');
        $this->changed($ticket, $this->noteSince($ticket, $before));
    }

    function assign() {
        $this->authenticate();
        $body = $this->body();
        $staff = $this->agent($body);
        $hasAgent = array_key_exists('agent_id', $body) && $body['agent_id'] !== null;
        $hasTeam = array_key_exists('team_id', $body) && $body['team_id'] !== null;
        if ($hasAgent && $hasTeam)
            $this->fail(400, 'invalid_field', 'Give agent_id or team_id, not both.', 'team_id');
        if (!$hasAgent && !$hasTeam)
            $this->fail(400, 'invalid_field', 'agent_id or team_id is required (0 releases).', 'agent_id');
        $field = $hasAgent ? 'agent_id' : 'team_id';
        $targetId = $this->idOrZero($body, $field);
        $assignee = null;
        if ($targetId && !($assignee = $hasAgent ? Staff::lookup($targetId) : Team::lookup($targetId)))
            $this->fail(400, 'invalid_field', $hasAgent ? 'No agent has this id.' : 'No team has this id.', $field);
        $comments = $this->optionalString($body, 'comments');
        list($ticket, $since) = $this->lockTicket($body);
        $role = $this->realRole($staff, $ticket);

        if (!$targetId) {
            // scp/ajax.php tickets/{id}/release: ticket.release, or the agent manages its department.
            if (!($role && $role->hasPerm(Ticket::PERM_RELEASE)) && !$staff->isManager())
                $this->fail(403, 'forbidden', 'The agent may not release assignments in this department.');
            $this->refuseConflict($since, $body);
            if ($hasAgent ? !$ticket->getStaffId() : !$ticket->getTeamId())
                $this->unchanged($ticket);
            $this->actAs($staff);
            $this->release($ticket, $hasAgent, $comments);
        }

        if (!$role || !$role->hasPerm(Ticket::PERM_ASSIGN))
            $this->fail(403, 'forbidden', 'The agent may not assign tickets in this department.');
        $this->refuseConflict($since, $body);
        if ($hasAgent ? $ticket->getStaffId() == $targetId : $ticket->getTeamId() == $targetId)
            $this->unchanged($ticket);

        // AssignmentForm's own checks, said plainly (its choices would only say "required").
        if ($hasAgent && !$assignee->isAvailable())
            $this->fail(409, 'refused', 'The agent is unavailable for assignment (inactive or on vacation).', $field);
        if (!$hasAgent && (!$assignee->isActive() || !$assignee->getNumMembers()))
            $this->fail(409, 'refused', 'The team is disabled or has no members.', $field);

        $this->actAs($staff);
        $before = $this->lastEntryId($ticket);
        // The panel's form, as tickets/{id}/assign/{agents,teams} posts it.
        $source = array('assignee' => array(($hasAgent ? 's' : 't') . $targetId));
        if ($comments !== null)
            $source['comments'] = nl2br(Format::htmlchars($comments));
        $form = $ticket->getAssignmentForm($source, array('target' => $hasAgent ? 'agents' : 'teams'));
        if (!$form->isValid())
            $this->fail(409, 'refused', $this->formErrors($form, 'osTicket refused the assignee.'), $field);
        $errors = array();
        if (!$ticket->assign($form, $errors))
            $this->refuseChange($errors, 'osTicket did not assign the ticket.', $field);
        $this->changed($ticket, $this->noteSince($ticket, $before));
    }

    function transfer() {
        $this->authenticate();
        $body = $this->body();
        $staff = $this->agent($body);
        $dept = Dept::lookup($this->id($body, 'dept_id', true));
        if (!$dept)
            $this->fail(400, 'invalid_field', 'No department has this id.', 'dept_id');
        $comments = $this->optionalString($body, 'comments');
        list($ticket, $since) = $this->lockTicket($body);
        $role = $this->realRole($staff, $ticket);
        if (!$role || !$role->hasPerm(Ticket::PERM_TRANSFER))
            $this->fail(403, 'forbidden', 'The agent may not transfer tickets out of this department.');
        // The panel offers the active departments the agent has access to (DepartmentField).
        if ($dept->getId() != $ticket->getDeptId()
                && (!$dept->isActive() || !($staff->hasPerm(Dept::PERM_DEPT) || $staff->canAccessDept($dept))))
            $this->fail(403, 'forbidden', 'The agent may not transfer tickets into that department.');
        $this->refuseConflict($since, $body);
        if ($dept->getId() == $ticket->getDeptId())
            $this->unchanged($ticket);

        $this->actAs($staff);
        $before = $this->lastEntryId($ticket);
        $source = array('dept' => array($dept->getId()));
        if ($comments !== null)
            $source['comments'] = nl2br(Format::htmlchars($comments));
        $form = $ticket->getTransferForm($source);
        if (!$form->isValid())
            $this->fail(409, 'refused', $this->formErrors($form, 'osTicket refused the department.'), 'dept_id');
        $errors = array();
        if (!$ticket->transfer($form, $errors))
            $this->refuseChange($errors, 'osTicket did not transfer the ticket.', 'dept_id');
        $this->changed($ticket, $this->noteSince($ticket, $before));
    }

    function update() {
        global $cfg;
        $this->authenticate();
        $body = $this->body();
        $staff = $this->agent($body);
        // The panel's inline edits (tickets/{id}/field/{name}/edit), one per field, in this order.
        $wanted = array();
        if (array_key_exists('priority_id', $body)) {
            if (!Priority::lookup($id = $this->id($body, 'priority_id', true)))
                $this->fail(400, 'invalid_field', 'No priority has this id.', 'priority_id');
            $wanted['priority_id'] = $id;
        }
        if (array_key_exists('topic_id', $body)) {
            $topic = Topic::lookup($id = $this->id($body, 'topic_id', true));
            if (!$topic || !$topic->isActive())
                $this->fail(400, 'invalid_field', 'No active help topic has this id.', 'topic_id');
            $wanted['topic_id'] = $id;
        }
        if (array_key_exists('sla_id', $body)) {
            // osTicket's panel cannot remove a plan: its inline edit keeps the old one (and logs
            // an empty event), its full edit form picks the department's, topic's or default again.
            if ($this->idOrZero($body, 'sla_id') === 0)
                $this->fail(400, 'invalid_field', 'osTicket cannot remove a ticket\'s SLA plan (sla_id 0); name a plan.', 'sla_id');
            if (!SLA::lookup($id = $this->id($body, 'sla_id', true)))
                $this->fail(400, 'invalid_field', 'No SLA plan has this id.', 'sla_id');
            $wanted['sla_id'] = $id;
        }
        if (array_key_exists('duedate', $body)) {
            $due = $body['duedate'];
            if ($due !== null && !$this->isDateTime($due))
                $this->fail(400, 'invalid_field', 'duedate must be "YYYY-MM-DD HH:MM:SS" or null.', 'duedate');
            $wanted['duedate'] = $due;
        }
        if (!$wanted)
            $this->fail(400, 'invalid_field', 'Give one or more of priority_id, topic_id, sla_id, duedate.', 'priority_id');
        list($ticket, $since) = $this->lockTicket($body);
        $role = $this->realRole($staff, $ticket);
        if (!$role || !$role->hasPerm(Ticket::PERM_EDIT))
            $this->fail(403, 'forbidden', 'The agent may not edit tickets in this department.');
        $this->refuseConflict($since, $body);

        $current = array(
            'priority_id' => (int) $ticket->getPriorityId(),
            'topic_id' => (int) $ticket->getTopicId(),
            'sla_id' => (int) $ticket->getSLAId(),
            'duedate' => $ticket->getDueDate() ?: null,
        );
        $changes = array_filter($wanted, function ($value, $name) use ($current) {
            return $value !== $current[$name];
        }, ARRAY_FILTER_USE_BOTH);
        if (!$changes)
            $this->unchanged($ticket);

        $this->actAs($staff);
        $fields = array('priority_id' => 'priority', 'topic_id' => 'topic', 'sla_id' => 'sla', 'duedate' => 'duedate');
        foreach ($changes as $name => $value) {
            $field = $ticket->getField($fields[$name]);
            if (!$field)
                $this->fail(409, 'refused', "osTicket has no $name field on this ticket.", $name);
            if ($name === 'duedate')
                // The panel's date picker sends a time with its zone; ours is the database's.
                $value = $value === null ? '' : $value . ' ' . $cfg->getDbTimezone();
            $form = $field->getEditForm(array($field->get('name') => $value, 'comments' => ''));
            if (!$form->isValid())
                $this->fail(400, 'invalid_field', $this->formErrors($form, "osTicket refused $name."), $name);
            $errors = array();
            if (!$ticket->updateField($form, $errors))
                $this->refuseChange($errors, "osTicket did not change $name.", $name, 400);
        }
        $this->changed($ticket, null);
    }

    /** The panel's release (scp/ajax.php tickets/{id}/release): then its event and its note. */
    private function release($ticket, $agent, $comments) {
        global $thisstaff;
        $before = $this->lastEntryId($ticket);
        $staff = $ticket->getStaff();
        $team = $ticket->getTeam();
        $errors = array();
        if (!$ticket->release($agent ? array('sid' => array($staff->getId())) : array('tid' => array($team->getId())), $errors))
            $this->refuseChange($errors, 'osTicket did not release the assignment.', $agent ? 'agent_id' : 'team_id');
        $data = array();
        if ($staff && !$ticket->getStaff())
            $data['staff'] = array($staff->getId(), (string) $staff->getName()->getOriginal());
        if ($team && !$ticket->getTeam())
            $data['team'] = $team->getId();
        $ticket->logEvent('released', $data);
        if ($comments !== null) {
            $_errors = array();
            $ticket->postNote(array('note' => nl2br(Format::htmlchars($comments)),
                'title' => __('Assignment Released')), $_errors, $thisstaff, false);
        }
        $this->changed($ticket, $this->noteSince($ticket, $before));
    }

    /**
     * Opens the change's transaction and locks the ticket's row until it ends: a concurrent
     * change waits here and then compares against what this one wrote.
     */
    private function lockTicket($body) {
        $ticketId = $this->id($body, 'ticket_id', true);
        $since = $this->sinceParameter($body);
        db_autocommit(false);
        $this->changeTransaction = true;
        // An error osTicket throws half-way ends the request without fail(): roll back then too.
        register_shutdown_function(array($this, 'abandonChange'));
        $result = db_query('SELECT updated FROM ' . TICKET_TABLE . ' WHERE ticket_id = '
            . db_input($ticketId) . ' FOR UPDATE');
        $row = $result ? db_fetch_array($result) : null;
        $ticket = $row ? Ticket::lookup($ticketId) : null;
        if (!$ticket)
            $this->fail(404, 'not_found', 'No ticket has this id.');
        return array($ticket, array($since, (string) $row['updated']));
    }

    private function sinceParameter($body) {
        $since = $body['if_unmodified_since'] ?? null;
        if ($since !== null && !$this->isDateTime($since))
            $this->fail(400, 'invalid_field', 'if_unmodified_since must be "YYYY-MM-DD HH:MM:SS" (the ticket\'s updated).', 'if_unmodified_since');
        return $since;
    }

    private function refuseConflict($since, $body) {
        list($expected, $current) = $since;
        if ($expected !== null && $expected !== $current)
            $this->fail(409, 'conflict', 'The ticket changed since ' . $expected . '; nothing was written.',
                null, array('updated' => $current));
    }

    /** The role the agent really has in the ticket's department (no create-only fallback). */
    private function realRole($staff, $ticket) {
        if (!$ticket->checkStaffPerm($staff))
            return null;
        $roles = $staff->getRoles();
        if (isset($roles[$ticket->getDeptId()]))
            return $roles[$ticket->getDeptId()];
        if ($ticket->isAssigned($staff) && $staff->usePrimaryRoleOnAssignment())
            return $staff->getRole();
        return null;
    }

    private function actAs($staff) {
        global $thisstaff;
        $thisstaff = $staff;
    }

    private function lastEntryId($ticket) {
        return (int) db_result(db_query('SELECT MAX(id) FROM ' . THREAD_ENTRY_TABLE
            . ' WHERE thread_id = ' . db_input($ticket->getThreadId())));
    }

    /** The internal note the change posted (its comments), if any. */
    private function noteSince($ticket, $before) {
        return ThreadEntry::objects()->filter(array('thread_id' => $ticket->getThreadId(),
            'type' => 'N', 'id__gt' => $before))->order_by('-id')->first();
    }

    private function changed($ticket, $entry) {
        if (!db_query('COMMIT')) {
            $this->fail(500, 'not_written', 'osTicket could not commit the change; nothing was written.');
        }
        db_autocommit(true);
        $this->changeTransaction = false;
        $this->changeAnswer($ticket, $entry, true);
    }

    private function unchanged($ticket) {
        db_query('ROLLBACK');
        db_autocommit(true);
        $this->changeTransaction = false;
        $this->changeAnswer($ticket, null, false);
    }

    private function changeAnswer($ticket, $entry, $changed) {
        $result = db_query('SELECT number, updated FROM ' . TICKET_TABLE . ' WHERE ticket_id = '
            . db_input($ticket->getId()));
        $row = db_fetch_array($result);
        $this->emit(200, array(
            'ticket_id' => (int) $ticket->getId(),
            'number' => (string) $row['number'],
            'entry_id' => $entry ? (int) $entry->getId() : null,
            'changed' => $changed,
            'updated' => (string) $row['updated'],
        ));
    }

    /** fail() calls this first, and the end of the request: nothing of a refused change stays. */
    function abandonChange() {
        if (!$this->changeTransaction)
            return;
        $this->changeTransaction = false;
        db_query('ROLLBACK');
        db_autocommit(true);
    }

    /** osTicket refused the change: 403 when it says so, else `$code` (409 by default). */
    private function refuseChange($errors, $fallback, $field=null, $code=409) {
        $message = Format::striptags($errors['err'] ?? '') ?: $fallback;
        foreach ($errors as $name => $error) {
            if ($name === 'err' || $name === 'errno')
                continue;
            $message .= ' ' . Format::striptags(is_array($error) ? implode(' ', $error) : (string) $error);
        }
        if (($errors['errno'] ?? 0) == 403)
            $this->fail(403, 'forbidden', trim($message));
        $this->fail($code, $code == 400 ? 'invalid_field' : 'refused', trim($message), $field);
    }

    private function formErrors($form, $fallback) {
        $messages = array();
        foreach ($form->getFields() as $field) {
            foreach ($field->errors() as $error)
                $messages[] = Format::striptags((string) $error);
        }
        return $messages ? implode(' ', $messages) : $fallback;
    }

    /** A non-negative integer (0 releases). */
    private function idOrZero($body, $name) {
        $value = $body[$name];
        if ($value === 0 || $value === '0')
            return 0;
        return $this->id($body, $name, true);
    }

    /** An optional string, kept as given when not blank; null when absent or blank. */
    private function optionalString($body, $name) {
        $value = $body[$name] ?? null;
        if ($value === null)
            return null;
        if (!is_string($value))
            $this->fail(400, 'invalid_field', "$name must be a string.", $name);
        return trim($value) === '' ? null : $value;
    }

    private function isDateTime($value) {
        if (!is_string($value) || !preg_match('/^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)$/', $value, $m))
            return false;
        return checkdate((int) $m[2], (int) $m[3], (int) $m[1]) && $m[4] < 24 && $m[5] < 60 && $m[6] < 60;
    }
}
