import { FormControl, FormControlLabel, FormLabel, Radio, RadioGroup } from '@mui/material';
import { A3_OUTCOMES, a3Outcome, DATA_KEYS, DATE_CODES, dataValue, parseAmount } from '@trasa/domain';
import { useState } from 'react';
import type { ActivityDto } from '../../../api/activities';
import { metres, RSD } from '../../../components/units';
import { ACTIVITIES, dataLabel } from '../../../messages';
import { inScript } from '../../../script';
import { formatMoney, formatNumber } from '../../clusters/format';
import { SavedNote, useAutosave } from '../autosave';
import { AutoDateField, AutoNumberField, AutoTextField, FieldWithNote } from '../fields';
import { ACTIVITY_LABELS } from '../labels';
import { useSaveData } from '../queries';
import { Block, RequiredFiles } from './common';

type Props = { activity: ActivityDto };

/** A2, A5: the date, the revised cluster length and the revised contracted value (A5 also the CEOP number). */
export function DateRevisedSection({ activity }: Props) {
  const { indikativnaDuzinaKlastera: length, ugovorenaVrednostKlastera: value } = activity.lokacija;
  return (
    <Block title={ACTIVITY_LABELS.data}>
      <AutoDateField activity={activity} required />
      <AutoNumberField
        activity={activity}
        dataKey={DATA_KEYS.revisedLength}
        label={ACTIVITY_LABELS.revisedLength}
        unit={metres()}
        helperText={length !== null ? ACTIVITY_LABELS.indicative(formatNumber(length)) : ' '}
      />
      <AutoNumberField
        activity={activity}
        dataKey={DATA_KEYS.revisedValue}
        label={ACTIVITY_LABELS.revisedValue}
        unit={RSD}
        helperText={value !== null ? ACTIVITY_LABELS.contracted(formatMoney(value)) : ' '}
      />
      {activity.kratakNaziv === 'A5' && <AutoTextField activity={activity} dataKey={DATA_KEYS.ceop} label={ACTIVITY_LABELS.ceop} />}
    </Block>
  );
}

/**
 * A10, A12, A13, A18 (a required date) and the codes without a section of their own (an optional date:
 * the generic data form); A12 also the route length in metres (PIO report), A10 and A25 the CEOP number.
 */
export function DateSection({ activity }: Props) {
  const code = activity.kratakNaziv;
  return (
    <Block title={ACTIVITY_LABELS.data}>
      <AutoDateField activity={activity} required={(DATE_CODES as readonly string[]).includes(code)} />
      {code === 'A12' && <RouteLength activity={activity} />}
      {(code === 'A10' || code === 'A25') && <AutoTextField activity={activity} dataKey={DATA_KEYS.ceop} label={ACTIVITY_LABELS.ceop} />}
    </Block>
  );
}

/** The cluster's route length in metres (A9 PZI, A12 PIO). */
export function RouteLength({ activity }: Props) {
  return <AutoNumberField activity={activity} dataKey={DATA_KEYS.routeLength} label={ACTIVITY_LABELS.routeLength} unit={metres()} />;
}

/** A9: the PZI files and the route length in metres. */
export function A9Section({ activity }: Props) {
  return (
    <>
      <Block title={ACTIVITY_LABELS.data}>
        <RouteLength activity={activity} />
      </Block>
      <RequiredFiles activity={activity} />
    </>
  );
}

/** A17: the built route length, a number of metres. */
export function A17Section({ activity }: Props) {
  return (
    <Block title={ACTIVITY_LABELS.data}>
      <AutoNumberField activity={activity} dataKey={DATA_KEYS.number} label={ACTIVITY_LABELS.builtLength} unit={metres()} kind="number" />
    </Block>
  );
}

/**
 * A26.1, A27.1: the number of connected households / schools (required), then the files (the picker waits
 * for a saved number).
 */
export function NumberFilesSection({ activity }: Props) {
  const saved = parseAmount(dataValue(activity.podaci, DATA_KEYS.number)) !== null;
  return (
    <>
      <Block title={ACTIVITY_LABELS.data}>
        <AutoNumberField
          activity={activity}
          dataKey={DATA_KEYS.number}
          label={activity.kratakNaziv === 'A27.1' ? ACTIVITY_LABELS.connectedSchools : ACTIVITY_LABELS.connectedHouseholds}
          kind="number"
          required
        />
      </Block>
      <RequiredFiles activity={activity} disabledHint={saved ? null : ACTIVITY_LABELS.numberFirst} />
    </>
  );
}

/** A5.1: the date and the fee (Taksa), and the LU document. */
export function A51Section({ activity }: Props) {
  return (
    <>
      <Block title={ACTIVITY_LABELS.data}>
        <AutoDateField activity={activity} required />
        <AutoNumberField activity={activity} dataKey={DATA_KEYS.fee} label={ACTIVITY_LABELS.fee} />
      </Block>
      <RequiredFiles activity={activity} />
    </>
  );
}

/** A10.1: the date; the file picker is disabled until the date is saved. */
export function A101Section({ activity }: Props) {
  const hasDate = !!dataValue(activity.podaci, DATA_KEYS.date);
  return (
    <>
      <Block title={ACTIVITY_LABELS.data}>
        <AutoDateField activity={activity} required />
      </Block>
      <RequiredFiles activity={activity} disabledHint={hasDate ? null : ACTIVITIES.enterField('datum')} />
    </>
  );
}

/** A3: 'Dobijena IOL' or 'Nije potrebna IOL' (saved as chosen); the latter needs one file. */
export function A3Section({ activity }: Props) {
  const save = useSaveData(activity);
  const initial = a3Outcome(dataValue(activity.podaci, DATA_KEYS.yesNo));
  const [value, setValue] = useState<string>(initial === 'obtained' ? A3_OUTCOMES[0] : initial === 'notNeeded' ? A3_OUTCOMES[1] : '');
  const autosave = useAutosave(
    (v: string) => save([{ key: DATA_KEYS.yesNo, naziv: dataLabel('A3', DATA_KEYS.yesNo), vrednost: v }]),
    'choice',
  );
  const notNeeded = a3Outcome(dataValue(activity.podaci, DATA_KEYS.yesNo)) === 'notNeeded';
  return (
    <>
      <Block title={ACTIVITY_LABELS.iol}>
        <FieldWithNote note={<SavedNote state={autosave.state} kind="choice" />}>
          <FormControl>
            <FormLabel id="a3-outcome" sx={{ position: 'absolute', left: -10000 }}>
              {ACTIVITY_LABELS.iol}
            </FormLabel>
            <RadioGroup
              aria-labelledby="a3-outcome"
              name={DATA_KEYS.yesNo}
              value={value}
              onChange={(e) => {
                setValue(e.target.value);
                autosave.schedule(e.target.value);
              }}
            >
              {A3_OUTCOMES.map((o) => (
                <FormControlLabel key={o} value={o} control={<Radio />} label={inScript(o)} />
              ))}
            </RadioGroup>
          </FormControl>
        </FieldWithNote>
      </Block>
      {notNeeded && <RequiredFiles activity={activity} />}
    </>
  );
}
