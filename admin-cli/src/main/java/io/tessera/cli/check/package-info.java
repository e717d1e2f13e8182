/**
 * {@code tessera fsck}: checks files' shards and parity through the admin API, and repairs what it
 * finds when asked.
 */
package io.tessera.cli.check;
