/**
 * The client's side of region locks and sharing intents: what it holds at the lock home (the meta
 * leader), cached between uses, under one lease it renews.
 */
package io.tessera.client.region;
