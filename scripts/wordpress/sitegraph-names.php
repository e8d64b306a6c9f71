<?php
/**
 * Plugin Name: sitegraph names
 * Description: Serves WordPress's own REST routes under the names of sitegraph's spec
 *   (`wp/v2` -> `core/v2`; `oembed/1.0` and `batch/v1` keep their names), for the
 *   real-WordPress test tier (scripts/wordpress/start.sh). Test sites only.
 *
 * How: WordPress builds its REST server from the class named by the
 * `wp_rest_server_class` filter. The subclass below renames the namespace and the
 * route of every `register_route` call, so the root index lists `core/v2`, its
 * routes keep their `args` and `allow_batch`, `GET /wp-json/core/v2` is the
 * namespace index and `/batch/v1` matches `core/v2` item paths. The controllers
 * still build their links from `wp/v2`; the `rest_url` and `rest_route_for_*`
 * filters rewrite those, so `_links`, `Location` and `_embed` use the new name.
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

const SITEGRAPH_NAMES = array( 'wp/v2' => 'core/v2' );

/** `/wp/v2/posts/5` -> `/core/v2/posts/5`; other routes unchanged. */
function sitegraph_rename_route( $route ) {
	foreach ( SITEGRAPH_NAMES as $from => $to ) {
		$prefix = '/' . $from;
		if ( $route === $prefix || strpos( $route, $prefix . '/' ) === 0 || strpos( $route, $prefix . '?' ) === 0 ) {
			return '/' . $to . substr( $route, strlen( $prefix ) );
		}
		if ( $route === $from || strpos( $route, $from . '/' ) === 0 ) {
			return $to . substr( $route, strlen( $from ) );
		}
	}
	return $route;
}

add_filter(
	'wp_rest_server_class',
	static function () {
		if ( ! class_exists( 'Sitegraph_REST_Server', false ) ) {
			require_once __DIR__ . '/sitegraph-rest-server.php';
		}
		return 'Sitegraph_REST_Server';
	}
);

/** Links the controllers build from `wp/v2` (self, collection, Location, wp:term, ...). */
add_filter(
	'rest_url',
	static function ( $url, $path ) {
		$renamed = sitegraph_rename_route( '/' . ltrim( (string) $path, '/' ) );
		if ( $renamed === '/' . ltrim( (string) $path, '/' ) ) {
			return $url;
		}
		foreach ( SITEGRAPH_NAMES as $from => $to ) {
			$url = preg_replace( '#(/' . preg_quote( rest_get_url_prefix(), '#' ) . '/|rest_route=/?)' . preg_quote( $from, '#' ) . '(?=/|$|\?|&)#', '$1' . $to, $url, 1 );
		}
		return $url;
	},
	10,
	2
);

foreach ( array( 'rest_route_for_post', 'rest_route_for_term', 'rest_route_for_post_type_items', 'rest_route_for_taxonomy_items' ) as $sitegraph_hook ) {
	add_filter( $sitegraph_hook, 'sitegraph_rename_route' );
}

/**
 * Application passwords over plain HTTP on loopback (WordPress allows them only
 * over HTTPS or when WP_ENVIRONMENT_TYPE is `local`).
 */
add_filter( 'wp_is_application_passwords_available', '__return_true' );

/** A test site sends no mail. */
add_filter( 'pre_wp_mail', '__return_false' );
