// `npm run cluster:up` / `npm run cluster:down`: the local control plane for the demo and for developers.
import { startPlane, stopPlane } from './plane.ts';

const command = process.argv[2];
try {
  if (command === 'up') {
    const started = Date.now();
    const plane = await startPlane();
    process.stderr.write(
      `control plane ready at ${plane.server} (${Date.now() - started} ms); audit log: ${plane.auditLog}\n`,
    );
    process.stdout.write(`export KUBECONFIG=${plane.kubeconfig}\n`);
  } else if (command === 'down') {
    await stopPlane();
    process.stderr.write('control plane stopped and its data removed\n');
  } else {
    process.stderr.write('usage: node test/control-plane/cli.ts up|down\n');
    process.exitCode = 2;
  }
} catch (error) {
  process.stderr.write(`cluster ${command}: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
