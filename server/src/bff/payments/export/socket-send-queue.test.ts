import { describe, expect, it } from 'vitest';
import { addressOfHex, createSendQueueReader, normalAddress } from './socket-send-queue.ts';

// Lines as Linux writes them: sl, local, remote, state, tx_queue:rx_queue, ...
const TCP = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:0BB8 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 1 1 0000000000000000 100 0 0 10 0
   1: 0100007F:0BB8 0100007F:C350 01 00010000:00000000 01:00000014 00000000  1000        0 2 1 0000000000000000 20 4 30 10 -1
   2: 0100007F:0BB8 0200007F:C350 01 00000200:00000000 01:00000014 00000000  1000        0 3 1 0000000000000000 20 4 30 10 -1
`;
const TCP6 = `  sl  local_address                         remote_address                        st tx_queue rx_queue
   0: 00000000000000000000000000000000:0BB8 0000000000000000FFFF00000300007F:C351 01 00000400:00000000 01:00000014 00000000
   1: 00000000000000000000000001000000:0BB8 B80D0120000000000000000001000000:C352 01 00000010:00000000 01:00000014 00000000
`;

describe('the kernel send queue of a connection', () => {
  it('reads tx_queue by server port and client address and port, IPv4, IPv4-mapped and IPv6 alike', async () => {
    const reader = createSendQueueReader({
      files: ['tcp', 'tcp6'],
      read: async (file) => (file === 'tcp' ? TCP : TCP6),
    });
    expect(await reader.queued({ localPort: 3000, remoteAddress: '127.0.0.1', remotePort: 50000 })).toBe(
      65_536,
    );
    // Same client port, another address: another connection.
    expect(await reader.queued({ localPort: 3000, remoteAddress: '127.0.0.2', remotePort: 50000 })).toBe(512);
    expect(
      await reader.queued({ localPort: 3000, remoteAddress: '::ffff:127.0.0.3', remotePort: 50001 }),
    ).toBe(1_024);
    expect(await reader.queued({ localPort: 3000, remoteAddress: '2001:db8::1', remotePort: 50002 })).toBe(
      16,
    );
    // Gone from the table: nothing queued.
    expect(await reader.queued({ localPort: 3000, remoteAddress: '127.0.0.1', remotePort: 1 })).toBe(0);
  });

  it('is unknown where there is no table, or the socket has no ports', async () => {
    const none = createSendQueueReader({ read: () => Promise.reject(new Error('ENOENT')) });
    expect(
      await none.queued({ localPort: 3000, remoteAddress: '127.0.0.1', remotePort: 50000 }),
    ).toBeUndefined();
    const some = createSendQueueReader({ files: ['tcp'], read: async () => TCP });
    expect(await some.queued({})).toBeUndefined();
  });

  it('reads the table once for every connection asking meanwhile, and again for whoever asks after it began', async () => {
    let reads = 0;
    const reader = createSendQueueReader({
      files: ['tcp'],
      read: async () => {
        reads += 1;
        return TCP;
      },
    });
    const ends = { localPort: 3000, remoteAddress: '127.0.0.1', remotePort: 50000 };
    await Promise.all(Array.from({ length: 16 }, () => reader.queued(ends)));
    expect(reads).toBe(1);
    await reader.queued(ends);
    expect(reads).toBe(2);
  });

  it('writes addresses alike from the table and from a socket', () => {
    expect(addressOfHex('0100007F')).toBe('127.0.0.1');
    expect(addressOfHex('0000000000000000FFFF00000100007F')).toBe('127.0.0.1');
    expect(addressOfHex('B80D0120000000000000000001000000')).toBe(normalAddress('2001:db8::1'));
    expect(normalAddress('::1')).toBe('0000:0000:0000:0000:0000:0000:0000:0001');
    expect(normalAddress('::ffff:10.0.0.1')).toBe('10.0.0.1');
  });
});
