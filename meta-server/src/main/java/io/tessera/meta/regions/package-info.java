/**
 * Region locks and sharing intents (pCFS), kept by the meta leader in memory: {@link
 * io.tessera.meta.regions.RegionTable} holds who holds what, {@link
 * io.tessera.meta.regions.RegionHome} serves meta.proto's region requests on it.
 */
package io.tessera.meta.regions;
