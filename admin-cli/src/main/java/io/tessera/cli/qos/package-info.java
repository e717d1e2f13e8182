/** {@code tessera qos}: applications' QoS settings and the shares the proxies achieve. */
package io.tessera.cli.qos;
