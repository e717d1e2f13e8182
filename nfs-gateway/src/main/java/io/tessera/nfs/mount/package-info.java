/** MOUNT version 3: root handles of exports for the clients the exports name. */
package io.tessera.nfs.mount;
