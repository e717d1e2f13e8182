/**
 * One scheduling point in front of one data server's storage, wherever it runs (a proxy process or
 * inside the data server): the scheduler, the totals from the other points, the settings followed
 * from the meta group, data.proto through the scheduler and qos.proto for totals and status.
 */
package io.tessera.qos.node;
