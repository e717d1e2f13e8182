/**
 * What every {@code tessera} command shares, whichever module holds it: how it reaches a cluster
 * (cluster.json, {@code --meta}, credentials), how it names a layout ({@code --ec}, {@code
 * --stripe-unit}) and how it prints JSON.
 */
package io.tessera.cli.options;
