/** JMH benchmarks: the erasure-coding loops, and what counting a request for metrics costs. */
package io.tessera.jmh;
