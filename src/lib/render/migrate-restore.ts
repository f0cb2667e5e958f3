import type { RestoreReport } from '../migrate/run.ts';
import type { HumanRenderer } from './output.ts';

/** What `migrate --restore` prints for a person: one line per CRD put back, or that none was left switched. */
export const restoreText: HumanRenderer<RestoreReport> = (report) =>
  report.restored.length === 0
    ? 'no CRD is left switched by an interrupted client-side run'
    : report.restored
        .map((crd) => `${crd.name}: conversion restored${crd.note ? ` (${crd.note})` : ''}`)
        .join('\n');
