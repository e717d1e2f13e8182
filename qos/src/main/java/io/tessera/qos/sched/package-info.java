/**
 * The scheduler of one proxy: SFQ(D) with mClock reservations and limits and total-service
 * fairness, and the settings of one application. No I/O: tested on simulated time.
 */
package io.tessera.qos.sched;
