/**
 * Stripe locks of two-phase writes and rebuilds: who holds which stripes of a file, leases, and
 * which writes are still landing under a snapshot's epoch.
 */
package io.tessera.data.lock;
