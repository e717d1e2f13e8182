/**
 * Prometheus metrics of a server process: its registry with the JVM's metrics, per-operation
 * request counters and latency histograms, and the HTTP endpoint that serves {@code /metrics}.
 */
package io.tessera.common.metrics;
