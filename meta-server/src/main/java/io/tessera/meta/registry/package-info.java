/**
 * The data servers the meta group knows: their addresses and state from heartbeats, and where new
 * files are placed.
 */
package io.tessera.meta.registry;
