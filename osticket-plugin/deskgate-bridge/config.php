<?php

class DeskgateBridgeConfig extends PluginConfig {

    function getOptions() {
        return array(
            'api_key_ids' => new TextboxField(array(
                'label' => 'API key ids allowed',
                'hint' => 'Ids of the API keys (Admin panel → Manage → API) that may call the deskgate routes, separated by commas. Empty: none may.',
                'default' => '',
                'configuration' => array('size' => 40, 'length' => 255),
            )),
        );
    }

    /** The allow-list as integers; anything that is not a positive id is dropped. */
    function getAllowedKeyIds() {
        $ids = array();
        foreach (preg_split('/[\s,]+/', (string) $this->get('api_key_ids')) as $id) {
            if (ctype_digit($id) && (int) $id > 0)
                $ids[] = (int) $id;
        }
        return $ids;
    }
}
