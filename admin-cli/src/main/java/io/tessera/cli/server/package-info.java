/**
 * {@code tessera server}: runs one meta replica or data server in this process, restarts a server,
 * and decommissions, recommissions or removes data servers.
 */
package io.tessera.cli.server;
