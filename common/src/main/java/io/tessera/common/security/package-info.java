/**
 * Who is who: identities in certificates of the cluster CA, credentials files, the transport's
 * mutual TLS, the revocation list, and the access tokens that let data servers serve a file's bytes
 * only to whom the meta group allowed.
 */
package io.tessera.common.security;
