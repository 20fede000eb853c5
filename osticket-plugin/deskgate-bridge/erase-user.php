<?php
require_once INCLUDE_DIR . 'class.ticket.php';
require_once INCLUDE_DIR . 'class.task.php';
require_once INCLUDE_DIR . 'class.collaborator.php';

/** A step osTicket's objects refused; its message names the step, never the data. */
class DeskgateErasureFailed extends Exception {}

/**
 * Erasing one user through osTicket's own model objects (deskgate decision 344). osTicket 1.18
 * has no anonymisation: its panel deletes a user's tickets (User::deleteAllTickets) before
 * User::delete. Here the tickets stay, with their numbers, statuses, times and events, owned by
 * one placeholder user, and lose what is the user's or about them:
 * - every entry of their tickets and their tasks: body `[erased]` (saved through the model, so
 *   osTicket's search index follows), no recipients, the e-mail headers nulled as
 *   Thread::delete does, attachments deleted (osTicket's deleteAttachments) and their files
 *   when nothing else uses them;
 * - the user's own entries anywhere: poster and title `[erased]`, no IP address, the
 *   placeholder as their user;
 * - the text, memo and phone answers of the tickets' and tasks' forms: `[erased]` (osTicket's
 *   ticket__cdata follows through its own signal);
 * - the tickets' IP address and source_extra; the user as collaborator anywhere;
 * - thread events by the user: username `[erased]`, the placeholder's id; event data that
 *   names them: none.
 * Then osTicket's own User::delete: account, e-mails, contact form, search index row.
 * The caller runs it in one transaction.
 */
class DeskgateUserErasure {
    const MARKER = '[erased]';
    /** The placeholder's address: the reserved .invalid domain, never delivered. */
    const PLACEHOLDER_EMAIL = 'erased@erased.invalid';
    /** Form answers that hold what a person typed. */
    static $textFields = array('text', 'memo', 'phone');

    private $user;
    private $personal;
    private $placeholder;

    function __construct($user) {
        $this->user = $user;
        // What names the user, looked for in event data.
        $this->personal = array((string) $user->getName());
        foreach ($user->emails as $email)
            $this->personal[] = (string) $email->address;
    }

    static function isPlaceholder($user) {
        return strcasecmp((string) $user->getEmail(), self::PLACEHOLDER_EMAIL) === 0;
    }

    function ticketCount() {
        return Ticket::objects()->filter(array('user_id' => $this->user->getId()))->count();
    }

    /** Everything above; resolves to what the caller answers (ids only). */
    function run() {
        $userId = $this->user->getId();
        $ticketIds = array();
        $entryIds = array();
        foreach (Ticket::objects()->filter(array('user_id' => $userId)) as $ticket) {
            $placeholder = $this->placeholder();
            $ticketIds[] = (int) $ticket->getId();
            $entryIds = array_merge($entryIds, $this->eraseThread($ticket->getThread(), $placeholder));
            $this->eraseForms(DynamicFormEntry::forTicket($ticket->getId(), true));
            foreach (Task::objects()->filter(array('object_id' => $ticket->getId(), 'object_type' => 'T')) as $task) {
                if ($thread = $task->getThread())
                    $this->eraseThread($thread, $placeholder);
                $this->eraseForms(DynamicFormEntry::forObject($task->getId(), ObjectModel::OBJECT_TYPE_TASK));
            }
            $ticket->user_id = $placeholder->getId();
            $ticket->user_email_id = 0;
            $ticket->ip_address = '';
            $ticket->source_extra = null;
            if (!$ticket->save(true))
                throw new DeskgateErasureFailed('a ticket was not saved');
        }
        // The user's entries on tickets not theirs (as a collaborator).
        foreach (ThreadEntry::objects()->filter(array('user_id' => $userId)) as $entry)
            $this->eraseOwnEntry($entry, $this->placeholder());
        Collaborator::objects()->filter(array('user_id' => $userId))->delete();
        foreach (ThreadEvent::objects()->filter(array('uid' => $userId, 'uid_type' => 'U')) as $event) {
            $event->username = self::MARKER;
            $event->uid = $this->placeholder()->getId();
            $event->save();
        }
        // Event data that names them, on any thread (a collaborator added or removed, an owner
        // changed): a whole JSON string, as stored (json_encode escapes non-ASCII) or plain,
        // so that a short name does not match inside other words.
        foreach ($this->personal as $value) {
            if ($value === '')
                continue;
            foreach (array_unique(array(json_encode($value), '"' . $value . '"')) as $form) {
                foreach (ThreadEvent::objects()->filter(array('data__contains' => $form)) as $event) {
                    $event->data = null;
                    $event->save();
                }
            }
        }
        $user = User::lookup($userId);
        $user->tickets->reset();
        if (!$user->delete())
            throw new DeskgateErasureFailed('User::delete refused');
        return array(
            'user_id' => (int) $userId,
            'placeholder_user_id' => $this->placeholder ? (int) $this->placeholder->getId() : null,
            'ticket_ids' => $ticketIds,
            'entry_ids' => $entryIds,
        );
    }

    /**
     * The one user erased users' tickets belong to, made the first time one is needed through
     * osTicket's User::fromVars (found by its address after).
     */
    private function placeholder() {
        if (!$this->placeholder) {
            $this->placeholder = User::fromVars(array('name' => self::MARKER, 'email' => self::PLACEHOLDER_EMAIL));
            if (!$this->placeholder)
                throw new DeskgateErasureFailed('the placeholder user could not be made');
        }
        return $this->placeholder;
    }

    /** Every entry of `thread` without its words; resolves to their ids. */
    private function eraseThread($thread, $placeholder) {
        $this->deleteAttachments($thread);
        ThreadEntryEmailInfo::objects()
            ->filter(array('thread_entry__thread' => $thread))
            ->update(array('headers' => null));
        $ids = array();
        foreach (ThreadEntry::objects()->filter(array('thread_id' => $thread->getId())) as $entry) {
            $ids[] = (int) $entry->getId();
            if ((int) $entry->user_id === (int) $this->user->getId()) {
                $this->eraseOwnEntry($entry, $placeholder);
                continue;
            }
            $entry->recipients = null;
            $entry->body = self::MARKER;
            $entry->format = 'text';
            if (!$entry->save(true))
                throw new DeskgateErasureFailed('an entry was not saved');
        }
        return $ids;
    }

    /**
     * osTicket's Thread::deleteAttachments, and at once the files no other attachment uses
     * (its deleteOrphans spares files younger than a day, for uploads in progress).
     */
    private function deleteAttachments($thread) {
        $fileIds = array();
        foreach (Attachment::objects()->filter(array('thread_entry__thread' => $thread))
                ->values_flat('file_id') as $row)
            $fileIds[] = (int) $row[0];
        $thread->deleteAttachments();
        foreach (array_unique($fileIds) as $fileId) {
            if (Attachment::objects()->filter(array('file_id' => $fileId))->count())
                continue;
            if (($file = AttachmentFile::lookup($fileId)) && !$file->delete())
                throw new DeskgateErasureFailed('an attachment file was not deleted');
        }
    }

    private function eraseOwnEntry($entry, $placeholder) {
        $entry->body = self::MARKER;
        $entry->format = 'text';
        $entry->poster = self::MARKER;
        if ($entry->title !== null)
            $entry->title = self::MARKER;
        $entry->ip_address = '';
        $entry->recipients = null;
        // Set before saving: osTicket's search index only follows an entry with a user or agent.
        $entry->user_id = $placeholder->getId();
        if (!$entry->save(true))
            throw new DeskgateErasureFailed('an entry was not saved');
    }

    private function eraseForms($entries) {
        foreach ($entries as $entry) {
            foreach ($entry->getAnswers() as $answer) {
                if (!in_array($answer->field->get('type'), self::$textFields, true))
                    continue;
                if ($answer->get('value') === null || $answer->get('value') === '')
                    continue;
                $answer->setValue(self::MARKER);
                if (!$answer->save(true))
                    throw new DeskgateErasureFailed('a form answer was not saved');
            }
        }
    }
}
