<?php
/**
 * The REST server of the sitegraph test site: WordPress's own, with `wp/v2`
 * registered as `core/v2` (see sitegraph-names.php).
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

class Sitegraph_REST_Server extends WP_REST_Server {
	public function register_route( $route_namespace, $route, $route_args, $override = false ) {
		if ( isset( SITEGRAPH_NAMES[ $route_namespace ] ) ) {
			$route_namespace = SITEGRAPH_NAMES[ $route_namespace ];
			$route           = sitegraph_rename_route( $route );
		}
		parent::register_route( $route_namespace, $route, $route_args, $override );
	}
}
