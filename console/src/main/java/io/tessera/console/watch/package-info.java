/** What the console remembers between requests: recent throughput and the events it saw. */
package io.tessera.console.watch;
