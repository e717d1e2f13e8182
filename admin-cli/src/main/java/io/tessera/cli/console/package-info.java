/**
 * {@code tessera console}: the console's tokens and its audit log, through the same admin API the
 * console uses.
 */
package io.tessera.cli.console;
