/**
 * The REST API, one class per resource (cluster, files, snapshots, QoS, audit); errors are JSON
 * {@code {"error": "..."}} with the HTTP status that says what kind.
 */
package io.tessera.console.api;
