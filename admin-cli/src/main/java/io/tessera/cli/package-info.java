/**
 * The {@code tessera} command: its entry point, the options every command shares (which cluster,
 * where its files are), logging and the one-line error report. Each group of subcommands lives in a
 * package of its own; commands act through the client's file and admin APIs only.
 */
package io.tessera.cli;
