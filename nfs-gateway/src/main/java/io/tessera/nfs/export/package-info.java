/** Exports in the {@code /etc/exports} syntax: paths, client addresses, rw/ro and squashing. */
package io.tessera.nfs.export;
