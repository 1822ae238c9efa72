import { isIP } from 'node:net';

/**
 * True for a host that only this machine can reach: `localhost`, 127.0.0.0/8, `::1` (also as an
 * IPv4-mapped address). `0.0.0.0` and `::` listen on every interface, so they are not.
 */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (bare === 'localhost') return true;
  const ipv4 = bare.startsWith('::ffff:') && isIP(bare.slice(7)) === 4 ? bare.slice(7) : bare;
  if (isIP(ipv4) === 4) return ipv4.split('.')[0] === '127';
  return isIP(bare) === 6 && /^(0{0,4}:){7}0{0,3}1$|^::1$/.test(bare);
}
