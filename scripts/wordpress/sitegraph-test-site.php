<?php
/**
 * Plugin Name: sitegraph test site
 * Description: What the real-WordPress test tier (scripts/wordpress/start.sh) needs of
 *   an otherwise unmodified WordPress: application passwords over plain HTTP on
 *   loopback, and no mail. The REST API keeps WordPress's own names (`wp/v2`);
 *   the gateway discovers them (docs/real-sites.md, "Namespace names"). Test sites only.
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Application passwords over plain HTTP on loopback (WordPress allows them only
 * over HTTPS or when WP_ENVIRONMENT_TYPE is `local`).
 */
add_filter( 'wp_is_application_passwords_available', '__return_true' );

/** A test site sends no mail. */
add_filter( 'pre_wp_mail', '__return_false' );
