/** {@code tessera recover}: what recovery is rebuilding and how far it got. */
package io.tessera.cli.recover;
