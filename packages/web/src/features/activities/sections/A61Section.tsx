import { Autocomplete, Chip, TextField, Typography } from '@mui/material';
import { DATA_KEYS, holderIds } from '@trasa/domain';
import { useMemo, useState } from 'react';
import type { ActivityDto } from '../../../api/activities';
import { COMMON, dataLabel } from '../../../messages';
import { SavedNote, useAutosave } from '../autosave';
import { FieldWithNote } from '../fields';
import { ACTIVITY_LABELS } from '../labels';
import { useHoldersQuery, useSaveData } from '../queries';
import { useHolderNameOf } from './A7Section';
import { Block, RequiredFiles } from './common';

/**
 * A6.1: the holders named in the location conditions, a multi-select shown as chips. A change saves
 * Ijos (comma-joined ids) and IjoNazivi 800 ms later; the server copies the list into A7. With no
 * holders the activity needs one file.
 */
export function A61Section({ activity }: { activity: ActivityDto }) {
  const holders = useHoldersQuery();
  const save = useSaveData(activity);
  const nameOf = useHolderNameOf(activity);
  const [ids, setIds] = useState<string[]>(() => holderIds(activity.podaci));
  const options = useMemo(() => {
    const listed = (holders.data ?? []).map((h) => h._id);
    // Holders already chosen stay choosable even when the list does not have them (yet).
    return [...new Set([...listed, ...ids])];
  }, [holders.data, ids]);
  const autosave = useAutosave(
    (next: string[]) =>
      // The server sets IjoNazivi from the ids and copies the list into A7.
      save([{ key: DATA_KEYS.holders, naziv: dataLabel('A6.1', DATA_KEYS.holders), vrednost: next.join(',') }]),
    'other',
  );
  const savedNone = holderIds(activity.podaci).length === 0;
  return (
    <>
      <Block title={ACTIVITY_LABELS.holders}>
        <FieldWithNote note={<SavedNote state={autosave.state} kind="other" />}>
          <Autocomplete
            multiple
            options={options}
            value={ids}
            onChange={(_, next) => {
              setIds(next);
              autosave.schedule(next);
            }}
            getOptionLabel={nameOf}
            loading={holders.isPending}
            noOptionsText={COMMON.emptyTable}
            filterSelectedOptions
            sx={{ width: { xs: '100%', sm: 520 } }}
            renderValue={(value, getItemProps) =>
              value.map((id, index) => {
                const { key, ...itemProps } = getItemProps({ index });
                return <Chip key={key} label={nameOf(id)} {...itemProps} />;
              })
            }
            renderInput={(params) => <TextField {...params} label={ACTIVITY_LABELS.holders} name={DATA_KEYS.holders} />}
          />
        </FieldWithNote>
        {holders.isError && (
          <Typography variant="body2" color="error">
            {ACTIVITY_LABELS.holdersLoadFailed}
          </Typography>
        )}
      </Block>
      {savedNone && <RequiredFiles activity={activity} />}
    </>
  );
}
