/**
 * The admin API ({@link io.tessera.client.admin.ClusterAdmin}): servers and their states,
 * decommissioning, snapshots (create, list, diff, restore, delete), recovery progress, fsck and
 * repair. The CLI, the console and the NFS gateway act through it, so they never disagree.
 */
package io.tessera.client.admin;
