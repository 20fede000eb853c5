<?php
require_once 'config.php';

class DeskgateBridgePlugin extends Plugin {
    var $config_class = 'DeskgateBridgeConfig';

    /** The enabled instance's allow-list; the API controller reads it per request. */
    static $allowedKeyIds = array();

    function isMultiInstance() {
        return false;
    }

    function bootstrap() {
        self::$allowedKeyIds = $this->getConfig()->getAllowedKeyIds();
        Signal::connect('api', array('DeskgateBridgePlugin', 'addRoutes'));
    }

    static function addRoutes($dispatcher) {
        // The controller extends ApiController, which api.inc.php loads after plugins start.
        $controller = dirname(__FILE__) . '/api.deskgate.php:DeskgateBridgeApi';
        $dispatcher->append(url_post('^/deskgate/tickets\.json$', array($controller, 'create')));
        $dispatcher->append(url_post('^/deskgate/reply\.json$', array($controller, 'reply')));
        $dispatcher->append(url_post('^/deskgate/close\.json$', array($controller, 'close')));
        $dispatcher->append(url_post('^/deskgate/account-confirmation\.json$',
            array($controller, 'sendAccountConfirmation')));
        $dispatcher->append(url_post('^/deskgate/erase-user\.json$', array($controller, 'eraseUser')));
        foreach (array('note', 'status', 'assign', 'transfer', 'update') as $change)
            $dispatcher->append(url_post('^/deskgate/' . $change . '\.json$', array($controller, $change)));
    }
}
