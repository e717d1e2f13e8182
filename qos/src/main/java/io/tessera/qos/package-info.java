/**
 * The QoS proxy tier: per-application proportional shares of bandwidth across all data servers,
 * with reservations and limits; its settings ({@link io.tessera.qos.QosConfigKeys}).
 */
package io.tessera.qos;
