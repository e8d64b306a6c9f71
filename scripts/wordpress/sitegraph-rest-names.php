<?php
/**
 * Plugin Name: sitegraph REST names
 * Description: Serves the REST API of the real-calendar tier's sites under the plugins' own
 *   namespace names (`tribe/events/v1`, `tec/v1`, `yoast/v1`, `wp/v2`: the file
 *   wp-content/sitegraph-names says `plugin`, the default) or under the contract's
 *   (`calendar/events/v1`, `calendar-core/v1`, `seo/v1`, `core/v2`: it says `spec`), as an alias
 *   plugin on a real site does. With `spec`, every route of a renamed namespace is registered
 *   again under the contract's name with the same handlers, arguments and schema, and the
 *   plugins' names leave the index and the router, so a client sees one name set only. Test
 *   sites only; the table is the gateway's src/upstream/names.ts.
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/** Whether the plugins' names are still visible (while they are copied, before they are hidden). */
function sitegraph_rest_names_copying( $set = null ) {
	static $copying = false;
	if ( null !== $set ) {
		$copying = $set;
	}
	return $copying;
}

function sitegraph_rest_names_mode() {
	static $mode = null;
	if ( null === $mode ) {
		$file = WP_CONTENT_DIR . '/sitegraph-names';
		$mode = is_readable( $file ) ? trim( (string) file_get_contents( $file ) ) : 'plugin';
	}
	return $mode;
}

/** Plugin prefix => contract prefix; a route under a namespace below is renamed by its longest prefix. */
function sitegraph_rest_renames() {
	return array(
		'tribe/events/v1'           => 'calendar/events/v1',
		'tec/v1'                    => 'calendar-core/v1',
		'tec/v2/onboarding'         => 'calendar-core/v2/onboarding',
		'tribe/views/v2'            => 'calendar/views/v2',
		'tribe/event-aggregator/v1' => 'calendar/aggregator/v1',
		'tribe/zapier/v1'           => 'calendar/automation-a/v1',
		'tribe/power-automate/v1'   => 'calendar/automation-b/v1',
		'yoast/v1'                  => 'seo/v1',
		'wp/v2'                     => 'core/v2',
		'facetwp/v1'                => 'facet/v1',
	);
}

/** Routes renamed inside a contract namespace (below the namespace), by prefix. */
function sitegraph_rest_route_renames() {
	return array(
		'seo/v1' => array(
			'/semrush'                                 => '/keyword_research',
			'/wistia_embed_permission'                 => '/video_embed_permission',
			'/site_kit_configuration_permanent_dismissal' => '/kit_configuration_permanent_dismissal',
		),
	);
}

function sitegraph_rest_rename_tail( $namespace, $tail ) {
	$renames = sitegraph_rest_route_renames();
	if ( isset( $renames[ $namespace ] ) ) {
		foreach ( $renames[ $namespace ] as $from => $to ) {
			if ( $tail === $from || 0 === strpos( $tail, $from . '/' ) || 0 === strpos( $tail, $from . '(' ) ) {
				return $to . substr( $tail, strlen( $from ) );
			}
		}
	}
	return $tail;
}

add_action(
	'rest_api_init',
	static function ( $server ) {
		if ( 'spec' !== sitegraph_rest_names_mode() ) {
			return;
		}
		$renames = sitegraph_rest_renames();
		sitegraph_rest_names_copying( true );
		foreach ( $renames as $plugin_ns => $spec_ns ) {
			$routes = $server->get_routes( $plugin_ns );
			foreach ( $routes as $route => $handlers ) {
				$tail = substr( $route, strlen( '/' . $plugin_ns ) );
				if ( '' === $tail ) {
					continue; // the namespace's own index, which registering below makes anew
				}
				// A route of a longer renamed namespace (tec/v2/onboarding under tec/v1 cannot happen,
				// but tribe/events/v1 must not take another's routes) stays with its own.
				$options = $server->get_route_options( $route );
				if ( isset( $options['namespace'] ) && $options['namespace'] !== $plugin_ns ) {
					continue;
				}
				$args = array();
				foreach ( $handlers as $handler ) {
					$handler['methods'] = array_keys( array_filter( (array) $handler['methods'] ) );
					$args[]             = $handler;
				}
				if ( isset( $options['schema'] ) ) {
					$args['schema'] = $options['schema'];
				}
				register_rest_route( $spec_ns, sitegraph_rest_rename_tail( $spec_ns, $tail ), $args, true );
			}
		}
		sitegraph_rest_names_copying( false );
	},
	PHP_INT_MAX
);

/** With `spec`, the plugins' names are neither routed nor listed. */
add_filter(
	'rest_endpoints',
	static function ( $endpoints ) {
		if ( 'spec' !== sitegraph_rest_names_mode() || sitegraph_rest_names_copying() ) {
			return $endpoints;
		}
		foreach ( array_keys( sitegraph_rest_renames() ) as $plugin_ns ) {
			foreach ( array_keys( $endpoints ) as $route ) {
				if ( $route === '/' . $plugin_ns || 0 === strpos( $route, '/' . $plugin_ns . '/' ) ) {
					unset( $endpoints[ $route ] );
				}
			}
		}
		return $endpoints;
	}
);

add_filter(
	'rest_index',
	static function ( $response ) {
		if ( 'spec' !== sitegraph_rest_names_mode() ) {
			return $response;
		}
		$data               = $response->get_data();
		$plugin_names       = array_keys( sitegraph_rest_renames() );
		$data['namespaces'] = array_values( array_diff( $data['namespaces'], $plugin_names ) );
		$response->set_data( $data );
		return $response;
	}
);
