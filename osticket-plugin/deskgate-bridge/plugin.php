<?php
// deskgate bridge: ticket create, reply and close for deskgate, through osTicket's own code.
return array(
    'id' => 'deskgate:bridge',
    'version' => '0.1.0',
    'name' => 'deskgate bridge',
    'author' => 'deskgate',
    'description' => 'API routes for deskgate: open a ticket with a chosen department, SLA or status, reply as an agent, close as an agent.',
    'url' => 'https://github.com/deskgate/deskgate',
    'plugin' => 'bridge.php:DeskgateBridgePlugin',
);
