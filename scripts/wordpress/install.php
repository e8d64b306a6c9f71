<?php
/**
 * Installs WordPress non-interactively into the test site and seeds it
 * (scripts/wordpress/start.sh runs it with php-cli):
 *
 *   php install.php <site dir> <site url> <out.json> [<plugin main file> ...]
 *
 * Creates the administrator `admin` with a fresh application password, an
 * author, post categories and tags, and posts that exercise every list filter
 * of the graph (dates, authors, categories with a child, tags, sticky,
 * formats, statuses, a password). Writes what the tests need to <out.json>
 * (inside .wordpress/, never committed). The plugins named after <out.json>
 * (already unpacked into wp-content/plugins/) are activated in that order,
 * as wp-admin would; the calendar's data is seeded through REST afterwards
 * (test/real/seed.ts).
 */

if ( PHP_SAPI !== 'cli' || count( $argv ) < 4 ) {
	fwrite( STDERR, "usage: php install.php <site dir> <site url> <out.json> [<plugin main file> ...]\n" );
	exit( 2 );
}
list( , $site_dir, $site_url, $out_file ) = $argv;
$plugin_files = array_slice( $argv, 4 );
$parts = parse_url( $site_url );

$_SERVER['HTTP_HOST']       = $parts['host'] . ( isset( $parts['port'] ) ? ':' . $parts['port'] : '' );
$_SERVER['SERVER_NAME']     = $parts['host'];
$_SERVER['SERVER_PORT']     = isset( $parts['port'] ) ? (string) $parts['port'] : '80';
$_SERVER['REQUEST_URI']     = '/';
$_SERVER['REQUEST_METHOD']  = 'GET';
$_SERVER['SERVER_PROTOCOL'] = 'HTTP/1.1';
$_SERVER['REMOTE_ADDR']     = '127.0.0.1';

define( 'WP_INSTALLING', true );
require rtrim( $site_dir, '/' ) . '/wp-load.php';
require_once ABSPATH . 'wp-admin/includes/upgrade.php';

// wp_install() tries permalink structures with loopback requests to a server
// that is not running yet; the structure is set below instead.
add_filter( 'pre_http_request', static function () {
	return new WP_Error( 'http_request_failed', 'no HTTP during install' );
} );

function sitegraph_fail( $what, $err ) {
	fwrite( STDERR, "install.php: $what failed: " . ( is_wp_error( $err ) ? $err->get_error_message() : var_export( $err, true ) ) . "\n" );
	exit( 1 );
}

$admin_password = wp_generate_password( 24, false );
$installed      = wp_install( 'sitegraph test site', 'admin', 'admin@example.org', true, '', $admin_password );
if ( empty( $installed['user_id'] ) ) {
	sitegraph_fail( 'wp_install', $installed );
}
$admin_id = (int) $installed['user_id'];
wp_set_current_user( $admin_id );

update_option( 'blogdescription', 'Real WordPress for sitegraph tests' );
update_option( 'timezone_string', 'Europe/Paris' );
update_option( 'gmt_offset', '' );
update_option( 'posts_per_page', 10 );

global $wp_rewrite;
$wp_rewrite->set_permalink_structure( '/%postname%/' );
$wp_rewrite->flush_rules( false );

// ---- people
$author_id = wp_insert_user(
	array(
		'user_login'   => 'author',
		'user_email'   => 'author@example.org',
		'user_pass'    => wp_generate_password( 24, false ),
		'role'         => 'author',
		'display_name' => 'Ann Author',
	)
);
if ( is_wp_error( $author_id ) ) {
	sitegraph_fail( 'author', $author_id );
}

$app = WP_Application_Passwords::create_new_application_password( $admin_id, array( 'name' => 'sitegraph tests' ) );
if ( is_wp_error( $app ) ) {
	sitegraph_fail( 'application password', $app );
}

// ---- terms
function sitegraph_term( $name, $taxonomy, $parent = 0 ) {
	$t = wp_insert_term( $name, $taxonomy, array( 'parent' => $parent ) );
	if ( is_wp_error( $t ) ) {
		sitegraph_fail( "term $name", $t );
	}
	return (int) $t['term_id'];
}
$news   = sitegraph_term( 'News', 'category' );
$local  = sitegraph_term( 'Local', 'category', $news );
$sports = sitegraph_term( 'Sports', 'category' );
$alpha  = sitegraph_term( 'alpha', 'post_tag' );
$beta   = sitegraph_term( 'beta', 'post_tag' );

// ---- posts: 14 published (one per day from 2025-01-01 10:00 site time), plus other statuses
$ids     = array();
$formats = array( 3 => 'aside', 7 => 'gallery', 11 => 'aside' );
for ( $i = 1; $i <= 14; $i++ ) {
	$cats = array();
	if ( $i % 2 === 0 ) {
		$cats[] = $news;
	}
	if ( $i % 5 === 0 ) {
		$cats[] = $local;
	}
	if ( $i % 3 === 0 ) {
		$cats[] = $sports;
	}
	$tags = array();
	if ( $i % 2 === 1 ) {
		$tags[] = 'alpha';
	}
	if ( $i % 4 === 0 ) {
		$tags[] = 'beta';
	}
	$id = wp_insert_post(
		array(
			'post_title'    => sprintf( 'Seeded post %02d %s', $i, $i % 2 ? 'walrus' : 'pelican' ),
			'post_name'     => sprintf( 'seeded-post-%02d', $i ),
			'post_content'  => sprintf( '<p>Body of seeded post %d. %s</p>', $i, $i === 9 ? 'The word zanzibar appears only here.' : '' ),
			'post_excerpt'  => $i === 4 ? 'A hand-written excerpt.' : '',
			'post_status'   => 'publish',
			'post_author'   => $i % 3 === 0 ? $author_id : $admin_id,
			'post_date'     => sprintf( '2025-01-%02d 10:00:00', $i ),
			'post_category' => $cats ? $cats : array( 1 ),
			'tags_input'    => $tags,
		),
		true
	);
	if ( is_wp_error( $id ) ) {
		sitegraph_fail( "post $i", $id );
	}
	if ( isset( $formats[ $i ] ) ) {
		set_post_format( $id, $formats[ $i ] );
	}
	$ids[] = $id;
}
stick_post( $ids[5] );

$others = array();
foreach ( array( 'draft', 'pending', 'private' ) as $status ) {
	$others[ $status ] = wp_insert_post(
		array(
			'post_title'   => "A $status post",
			'post_content' => "<p>Not public: $status.</p>",
			'post_status'  => $status,
			'post_author'  => $admin_id,
		),
		true
	);
}
$others['password'] = wp_insert_post(
	array(
		'post_title'    => 'A protected post',
		'post_content'  => '<p>Behind a password.</p>',
		'post_status'   => 'publish',
		'post_password' => 'open-sesame',
		'post_author'   => $admin_id,
		'post_date'     => '2024-12-20 09:00:00',
	),
	true
);
foreach ( $others as $what => $id ) {
	if ( is_wp_error( $id ) ) {
		sitegraph_fail( "post $what", $id );
	}
}

// ---- pages (beside WordPress's own "Sample page", ID 2) and a media item: a child page, an ordered page, an image
$pages = array( 'sample' => 2 );
$pages['team'] = wp_insert_post(
	array(
		'post_title'   => 'Our team',
		'post_name'    => 'team',
		'post_content' => '<p>The people behind the site.</p>',
		'post_status'  => 'publish',
		'post_type'    => 'page',
		'post_parent'  => 2,
		'menu_order'   => 3,
		'post_author'  => $admin_id,
		'post_date'    => '2025-02-01 09:00:00',
	),
	true
);
$pages['contact'] = wp_insert_post(
	array(
		'post_title'   => 'Contact',
		'post_name'    => 'contact',
		'post_content' => '<p>Write to us.</p>',
		'post_status'  => 'publish',
		'post_type'    => 'page',
		'menu_order'   => 1,
		'post_author'  => $author_id,
		'post_date'    => '2025-02-02 09:00:00',
	),
	true
);
foreach ( $pages as $what => $id ) {
	if ( is_wp_error( $id ) ) {
		sitegraph_fail( "page $what", $id );
	}
}
// A 2x1 PNG, so the media item has real dimensions (getimagesize reads them without an image library).
$upload = wp_upload_bits( 'seeded-image.png', null, base64_decode( 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAYAAAD0In+KAAAAEUlEQVR42mP8z8DwnwEIGAEAEQACAMa6kqAAAAAASUVORK5CYII=' ) );
if ( ! empty( $upload['error'] ) ) {
	sitegraph_fail( 'upload', $upload['error'] );
}
$image = wp_insert_attachment(
	array(
		'post_title'     => 'Seeded image',
		'post_excerpt'   => 'A caption for the seeded image.',
		'post_content'   => 'A description of the seeded image.',
		'post_mime_type' => 'image/png',
		'post_status'    => 'inherit',
		'post_author'    => $admin_id,
		'post_date'      => '2025-01-15 12:00:00',
	),
	$upload['file'],
	$ids[0],
	true
);
if ( is_wp_error( $image ) ) {
	sitegraph_fail( 'attachment', $image );
}
require_once ABSPATH . 'wp-admin/includes/image.php';
wp_update_attachment_metadata( $image, wp_generate_attachment_metadata( $image, $upload['file'] ) );
update_post_meta( $image, '_wp_attachment_image_alt', 'Two pixels' );
set_post_thumbnail( $ids[0], $image );
set_post_thumbnail( $pages['team'], $image );

// ---- plugins, activated as wp-admin would (their activation hooks run here)
require_once ABSPATH . 'wp-admin/includes/plugin.php';
$plugins = array();
foreach ( $plugin_files as $file ) {
	$activated = activate_plugin( $file, '', false, false );
	if ( is_wp_error( $activated ) ) {
		sitegraph_fail( "activating $file", $activated );
	}
	$data                       = get_plugin_data( WP_PLUGIN_DIR . '/' . $file, false, false );
	$plugins[ dirname( $file ) ] = $data['Version'];
}
$wp_rewrite->flush_rules( false );

$out = array(
	'origin'     => untrailingslashit( home_url() ),
	'restUrl'    => rest_url(),
	'wpVersion'  => get_bloginfo( 'version' ),
	'plugins'    => (object) $plugins,
	'admin'      => array( 'id' => $admin_id, 'login' => 'admin', 'appPassword' => $app[0] ),
	'author'     => array( 'id' => (int) $author_id, 'login' => 'author' ),
	'categories' => array( 'uncategorized' => 1, 'news' => $news, 'local' => $local, 'sports' => $sports ),
	'tags'       => array( 'alpha' => $alpha, 'beta' => $beta ),
	'posts'      => array( 'published' => $ids, 'sticky' => $ids[5], 'helloWorld' => 1, 'others' => $others ),
	'pages'      => $pages,
	'media'      => array( 'image' => $image ),
);
if ( false === file_put_contents( $out_file, wp_json_encode( $out, JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES ) . "\n" ) ) {
	sitegraph_fail( 'writing ' . $out_file, null );
}
chmod( $out_file, 0600 );
echo "installed WordPress " . get_bloginfo( 'version' ) . " at " . home_url() . "\n";
