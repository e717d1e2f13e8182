/**
 * {@code tessera snapshot}: create, list, diff, restore and delete whole-file-system snapshots
 * through the admin API.
 */
package io.tessera.cli.snapshot;
