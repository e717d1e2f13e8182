/**
 * Service totals between proxies: what each proxy sends, and the totals heard from the others that
 * make an application's share one of its total service across servers.
 */
package io.tessera.qos.exchange;
