/**
 * Typed configuration: keys with their defaults and documentation, values from files, system
 * properties and the command line, sizes and durations as people write them.
 */
package io.tessera.common.config;
