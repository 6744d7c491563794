import { Button, Callout, Dialog, DialogBody, InputGroup, Tag } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { useMemo } from 'react';
import type { ActorRefFrom } from 'xstate';
import {
  type BandDraftRow,
  type BandEnd,
  bandRowProblem,
  canResetBand,
  OCCUPANCY_BANDS_HELP,
  OCCUPANCY_BANDS_TITLE,
  type OccupancyBandsDraft,
  publishedBandText,
  refusalAtRow,
  shownBandSource,
  withBandReset,
  withBandText,
} from '../../../domain/occupancyBands';
import {
  bandsRefusalOf,
  type createOccupancyBandsMachine,
} from '../../../machines/tenantConnect/occupancyBandsMachine';
import { type DataColumn, DataTable } from '../../common/DataTable';
import { DialogActions } from '../../common/DialogActions';
import { useNoticeToasts } from '../../common/Notifications';

type BandsActor = ActorRefFrom<ReturnType<typeof createOccupancyBandsMachine>>;

/** A category with what the dialog says of it: its place, and the rule it breaks or the server's refusal. */
interface BandLine {
  readonly index: number;
  readonly row: BandDraftRow;
  /** Why the row cannot be saved, or why the server refused it, and at which end (none: the row itself). */
  readonly message: { readonly field: BandEnd | undefined; readonly text: string } | undefined;
}

const END_NAMES: Readonly<Record<BandEnd, string>> = { low_percent: 'Low end', high_percent: 'High end' };

/** The columns while the bands are read (skeleton rows under them). */
const SKELETON_COLUMNS: readonly DataColumn<BandLine>[] = [
  { key: 'category', header: 'Category', kind: 'text', render: () => '' },
  { key: 'source', header: 'Source', kind: 'status', render: () => '' },
  { key: 'low', header: 'Low (%)', kind: 'percent', render: () => '' },
  { key: 'high', header: 'High (%)', kind: 'percent', render: () => '' },
];

/** The id of a row's message, which its fields are described by. */
const messageId = (index: number) => `occupancy-band-message-${index}`;

function BandField({
  line,
  end,
  draft,
  disabled,
  onChange,
}: {
  readonly line: BandLine;
  readonly end: BandEnd;
  readonly draft: OccupancyBandsDraft;
  readonly disabled: boolean;
  readonly onChange: (value: OccupancyBandsDraft) => void;
}) {
  const wrong = line.message !== undefined && line.message.field === end;
  const short = end === 'low_percent' ? 'low' : 'high';
  return (
    <InputGroup
      small
      className="occupancy-band-input"
      inputMode="decimal"
      aria-label={`${END_NAMES[end]} of ${line.row.category} (%)`}
      aria-invalid={wrong}
      aria-describedby={wrong ? messageId(line.index) : undefined}
      data-testid={`occupancy-band-${short}-${line.index}`}
      value={end === 'low_percent' ? line.row.low : line.row.high}
      intent={wrong ? 'danger' : 'none'}
      disabled={disabled}
      onValueChange={(text) => onChange(withBandText(draft, line.row.category, end, text))}
    />
  );
}

/**
 * The client's occupancy cost bands in a dialog: every category of its outlets with its band and where the band
 * comes from ('Your band', 'Published', 'None'), its low and high ends to set, and a reset to the published band.
 * A rule a band breaks is said under its row at once; the server's refusal at the band and end it names.
 */
export function OccupancyBandsDialog({ actor, onClose }: { readonly actor: BandsActor; readonly onClose: () => void }) {
  useNoticeToasts(actor);
  const send = actor.send;
  const draft = useSelector(actor, (state) => state.context.draft);
  const saving = useSelector(actor, (state) => state.hasTag('saving'));
  const failedToLoad = useSelector(actor, (state) => state.matches('failure'));
  const canSave = useSelector(actor, (state) => state.can({ type: 'editor.save' }));
  const canChange = useSelector(
    actor,
    (state) => state.context.draft !== undefined && state.can({ type: 'editor.change', value: state.context.draft }),
  );
  const refusal = useSelector(actor, (state) => bandsRefusalOf(state.context.saveError));
  const lines = useMemo(
    () =>
      draft?.rows.map((row, index): BandLine => {
        const problem = bandRowProblem(row);
        const refused = refusalAtRow(row, refusal);
        const message = problem
          ? { field: problem.field, text: problem.message }
          : refused
            ? { field: refused.field, text: refused.message }
            : undefined;
        return { index, row, message };
      }),
    [draft, refusal],
  );
  const change = (value: OccupancyBandsDraft) => send({ type: 'editor.change', value });
  const columns = ((): readonly DataColumn<BandLine>[] => {
    if (!draft) return SKELETON_COLUMNS;
    const field = (end: BandEnd) => (line: BandLine) => (
      <BandField line={line} end={end} draft={draft} disabled={!canChange || saving} onChange={change} />
    );
    return [
      { key: 'category', header: 'Category', kind: 'text', render: (line) => line.row.category },
      {
        key: 'source',
        header: 'Source',
        kind: 'status',
        render: (line) => (
          <Tag minimal data-testid={`occupancy-band-source-${line.index}`}>
            {shownBandSource(line.row)}
          </Tag>
        ),
      },
      { key: 'low', header: 'Low (%)', kind: 'percent', render: field('low_percent') },
      { key: 'high', header: 'High (%)', kind: 'percent', render: field('high_percent') },
      {
        key: 'published',
        header: 'Published',
        kind: 'percent',
        render: (line) => publishedBandText(line.row.category),
      },
      {
        key: 'reset',
        header: '',
        kind: 'actions',
        render: (line) =>
          canResetBand(line.row) ? (
            <Button
              small
              minimal
              icon="reset"
              text="Reset"
              aria-label={`Reset ${line.row.category} to the published band`}
              data-testid={`occupancy-band-reset-${line.index}`}
              disabled={!canChange || saving}
              onClick={() => change(withBandReset(draft, line.row.category))}
            />
          ) : null,
      },
    ];
  })();
  const unplaced = refusal !== undefined && refusal.category === undefined ? refusal.message : undefined;

  return (
    <Dialog
      isOpen
      title={OCCUPANCY_BANDS_TITLE}
      className="occupancy-bands-dialog"
      onClose={onClose}
      canEscapeKeyClose={!saving}
      canOutsideClickClose={!saving}
      data-testid="occupancy-bands-dialog"
    >
      <DialogBody className="occupancy-bands-body">
        <p className="occupancy-bands-help">{OCCUPANCY_BANDS_HELP}</p>
        {unplaced ? (
          <Callout compact intent="danger" role="alert" className="occupancy-bands-refusal">
            {unplaced}
          </Callout>
        ) : null}
        <DataTable
          label={OCCUPANCY_BANDS_TITLE}
          testId="occupancy-bands-table"
          columns={columns}
          rows={lines}
          rowKey={(line) => line.row.category}
          rowAttributes={(line) => ({ 'data-testid': `occupancy-band-row-${line.index}` })}
          detail={(line) =>
            line.message ? (
              <span
                id={messageId(line.index)}
                role="alert"
                className="occupancy-band-message"
                data-testid={`occupancy-band-message-${line.index}`}
              >
                {line.message.field ? `${END_NAMES[line.message.field]}: ` : ''}
                {line.message.text}
              </span>
            ) : undefined
          }
          skeleton={{ label: 'Loading band', testId: 'occupancy-bands-skeleton' }}
          empty={{ description: 'Your outlets have no category yet.' }}
          {...(failedToLoad
            ? {
                failed: {
                  message: 'The bands could not be read.',
                  onRetry: () => send({ type: 'editor.retry' }),
                  retryTestId: 'occupancy-bands-retry',
                },
              }
            : {})}
        />
      </DialogBody>
      <DialogActions
        submitText="Save"
        submitTestId="occupancy-bands-save"
        busy={saving}
        canSubmit={canSave}
        lockCancel
        onCancel={onClose}
        onSubmit={() => send({ type: 'editor.save' })}
      />
    </Dialog>
  );
}
