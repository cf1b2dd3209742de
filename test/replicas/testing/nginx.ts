import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const BINARY = process.env.NGINX ?? '/usr/sbin/nginx';

/** Whether nginx can be started here. CI installs Debian's package, so there a missing one fails. */
export function nginxAvailable(): boolean {
  try {
    execFileSync(BINARY, ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    if (process.env.CI) throw new Error(`${BINARY} is required in CI (Debian: apt-get install nginx)`);
    return false;
  }
}

export interface Nginx {
  origin: string;
  stop(): Promise<void>;
}

/**
 * A real nginx on loopback, round-robin over `backends`, configured as the README advises (forwarded headers,
 * no buffering for downloads and event streams), and saying which backend answered in `X-Upstream`.
 */
export async function startNginx(port: number, backends: number[]): Promise<Nginx> {
  const dir = await mkdtemp(join(tmpdir(), 'nginx-replicas-'));
  for (const temp of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) await mkdir(join(dir, temp));
  const asRoot = process.getuid?.() === 0;
  const config = `
${asRoot ? 'user root;' : ''}
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 512; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream bff {
${backends.map((backend) => `    server 127.0.0.1:${backend};`).join('\n')}
    keepalive 16;
    keepalive_timeout 60s;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://bff;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_buffering off;
      proxy_read_timeout 130s;
      add_header X-Upstream $upstream_addr always;
    }
  }
}
`;
  await writeFile(join(dir, 'nginx.conf'), config);
  const child: ChildProcess = spawn(
    BINARY,
    ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log'), '-g', 'daemon off;'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  // An interrupted test run takes it along (nginx in the foreground outlives its parent otherwise).
  const orphaned = () => child.kill('SIGKILL');
  process.once('exit', orphaned);
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const deadline = performance.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) {
      process.off('exit', orphaned);
      throw new Error(`nginx exited: ${stderr}`);
    }
    const listening = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      }).once('error', () => resolve(false));
    });
    if (listening) break;
    if (performance.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`nginx did not listen on ${port}: ${stderr}`);
    }
    await sleep(50);
  }
  return {
    origin: `http://127.0.0.1:${port}`,
    async stop() {
      process.off('exit', orphaned);
      if (child.exitCode === null) {
        const exited = once(child, 'exit');
        child.kill('SIGQUIT');
        const timer = setTimeout(() => child.kill('SIGKILL'), 3_000);
        await exited;
        clearTimeout(timer);
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
