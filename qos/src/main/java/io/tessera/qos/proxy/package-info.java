/**
 * The proxy process ({@code tessera.qos.placement=proxy}): a scheduling point of its own in front
 * of one data server, forwarding data.proto to it without copying payloads.
 */
package io.tessera.qos.proxy;
