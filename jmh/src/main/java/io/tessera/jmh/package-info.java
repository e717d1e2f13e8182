/** JMH benchmarks of the erasure-coding loops. */
package io.tessera.jmh;
