/**
 * The cluster's certificate authority: creates the CA, issues credentials (certificate and key) for
 * users and servers. Only the tools that issue credentials use it; servers and clients need the JDK
 * alone to read them.
 */
package io.tessera.ca;
