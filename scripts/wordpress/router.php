<?php
/**
 * Router of PHP's built-in server for the test site: existing files are served
 * as they are (PHP files run), everything else goes to WordPress's index.php,
 * so pretty permalinks (`/wp-json/...`, `/<post-slug>/`) work.
 */
$sitegraph_root = rtrim( $_SERVER['DOCUMENT_ROOT'], '/' );
$sitegraph_path = rawurldecode( (string) parse_url( $_SERVER['REQUEST_URI'], PHP_URL_PATH ) );

if ( $sitegraph_path !== '/' && strpos( $sitegraph_path, '..' ) === false && is_file( $sitegraph_root . $sitegraph_path ) ) {
	if ( substr( $sitegraph_path, -4 ) !== '.php' ) {
		return false;
	}
	$sitegraph_script = $sitegraph_path;
} elseif ( is_file( $sitegraph_root . rtrim( $sitegraph_path, '/' ) . '/index.php' ) && $sitegraph_path !== '/' ) {
	$sitegraph_script = rtrim( $sitegraph_path, '/' ) . '/index.php';
} else {
	$sitegraph_script = '/index.php';
}

$_SERVER['SCRIPT_NAME']     = $sitegraph_script;
$_SERVER['PHP_SELF']        = $sitegraph_script;
$_SERVER['SCRIPT_FILENAME'] = $sitegraph_root . $sitegraph_script;
chdir( dirname( $sitegraph_root . $sitegraph_script ) );
require $sitegraph_root . $sitegraph_script;
