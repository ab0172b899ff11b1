import { Box, Paper, Stack, Typography } from '@mui/material';
import { DATA_KEYS, dataValue, holderIds } from '@trasa/domain';
import type { ReactNode } from 'react';
import type { ActivityDto, ActivityFileDto, ConnectedActivityDto } from '../../api/activities';
import { activityTitle, testTypeName } from '../../shipped';
import { FileRow, OLD_FILE_NAME_MAX, useFileDelete } from './files';
import { ACTIVITY_LABELS } from './labels';
import { isCurrentFile, liveFiles } from './model';

/** The holder names of A6.1 / A7 by id: IjoNazivi follows the order of Ijos; A7Taksa items carry them too. */
export function holderNames(podaci: ActivityDto['podaci']): Map<string, string> {
  const ids = holderIds(podaci);
  const names = (dataValue(podaci, DATA_KEYS.holderNames) ?? '').split(',').map((s) => s.trim());
  const map = new Map<string, string>();
  ids.forEach((id, i) => {
    if (names[i]) map.set(id, names[i]);
  });
  for (const item of podaci)
    if (item.key === DATA_KEYS.a7Fee && item.ref && item.naziv && !map.has(item.ref)) map.set(item.ref, item.naziv);
  return map;
}

/** What a file is for: the settlement (A1), the test type (A20) or the holder (A7). */
export function slotNote(
  code: string,
  podaci: ActivityDto['podaci'],
  naselja: ActivityDto['lokacija']['naselja'],
  slot: string | null,
): string | undefined {
  if (!slot) return undefined;
  switch (code) {
    case 'A1':
      return naselja.find((n) => n._id === slot)?.naziv;
    case 'A20':
      return testTypeName(slot);
    case 'A7':
      return holderNames(podaci).get(slot);
    default:
      return undefined;
  }
}

function FileList({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack component="ul" aria-label={label} spacing={0.5} sx={{ m: 0, p: 0, listStyle: 'none' }}>
      {children}
    </Stack>
  );
}

/**
 * The activity's documents: those of the current revision (names to 40 characters, delete where
 * allowed), then those of earlier revisions (names to 50 characters, never deleted).
 */
export function ActivityDocuments({ activity }: { activity: ActivityDto }) {
  const { dialog, onDeleteFor } = useFileDelete(activity);
  const files = liveFiles(activity.fajlovi);
  const current = files.filter((f) => isCurrentFile(activity, f));
  const old = files.filter((f) => !isCurrentFile(activity, f));
  const row = (f: ActivityFileDto, nameMax?: number, deletable = true) => (
    <FileRow
      key={f._id}
      file={f}
      activityId={activity._id}
      locationId={activity.lokacija._id}
      nameMax={nameMax}
      note={slotNote(activity.kratakNaziv, activity.podaci, activity.lokacija.naselja, f.slot)}
      onDelete={deletable ? onDeleteFor(f) : undefined}
    />
  );
  return (
    <Paper component="section" aria-label={ACTIVITY_LABELS.documents} sx={{ p: 2 }}>
      <Typography variant="h3" component="h2" gutterBottom>
        {ACTIVITY_LABELS.documents}
      </Typography>
      {current.length === 0 ? (
        <Typography color="text.secondary">{ACTIVITY_LABELS.noDocuments}</Typography>
      ) : (
        <FileList label={ACTIVITY_LABELS.currentDocuments}>{current.map((f) => row(f))}</FileList>
      )}
      {old.length > 0 && (
        <Box sx={{ mt: 2 }}>
          <Typography variant="subtitle2" component="h3" gutterBottom>
            {ACTIVITY_LABELS.oldDocuments}
          </Typography>
          <FileList label={ACTIVITY_LABELS.oldDocuments}>{old.map((f) => row(f, OLD_FILE_NAME_MAX, false))}</FileList>
        </Box>
      )}
      {dialog}
    </Paper>
  );
}

/** The documents of the connected activities (download only), one block per activity that has some. */
/**
 * A connected activity's file note: what it is for and, once the activity was sent back, which revision it
 * belongs to and whether that is the current one (a control reads the files of the revision it checks).
 */
function connectedNote(c: ConnectedActivityDto, f: ActivityFileDto, naselja: ActivityDto['lokacija']['naselja']): string | undefined {
  const slot = slotNote(c.kratakNaziv, c.podaci, naselja, f.slot);
  if (c.returned === 0) return slot;
  const revision = ACTIVITY_LABELS.fileRevision(f.revizija, f.revizija === c.returned);
  return slot ? `${slot} · ${revision}` : revision;
}

export function ConnectedDocuments({ connected, lokacija }: { connected: ConnectedActivityDto[]; lokacija: ActivityDto['lokacija'] }) {
  const withFiles = connected.map((c) => ({ c, files: liveFiles(c.fajlovi) })).filter((x) => x.files.length > 0);
  return (
    <Paper component="section" aria-label={ACTIVITY_LABELS.connectedDocuments} sx={{ p: 2 }}>
      <Typography variant="h3" component="h2" gutterBottom>
        {ACTIVITY_LABELS.connectedDocuments}
      </Typography>
      {withFiles.length === 0 ? (
        <Typography color="text.secondary">{ACTIVITY_LABELS.noDocuments}</Typography>
      ) : (
        <Stack spacing={2}>
          {withFiles.map(({ c, files }) => (
            <Box key={c._id}>
              <Typography variant="subtitle2" component="h3" gutterBottom>
                {activityTitle(c)}
              </Typography>
              <FileList label={activityTitle(c)}>
                {files.map((f) => (
                  <FileRow key={f._id} file={f} activityId={c._id} locationId={lokacija._id} note={connectedNote(c, f, lokacija.naselja)} />
                ))}
              </FileList>
            </Box>
          ))}
        </Stack>
      )}
    </Paper>
  );
}
