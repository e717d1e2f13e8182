/**
 * What the JVM and the machine need once per process: the common pool's size and RocksDB's unpacked
 * native library.
 */
package io.tessera.common.platform;
