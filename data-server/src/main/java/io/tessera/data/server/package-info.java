/**
 * A data server process: its settings, start and stop, heartbeats to the meta group, the request
 * handler that admits each operation, and the guards on space and client load.
 */
package io.tessera.data.server;
