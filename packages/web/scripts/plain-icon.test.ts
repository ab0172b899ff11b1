/**
 * The list's plain icons (components/PlainIcon.tsx, issue 13 item 3) draw MUI's own paths: read from the
 * icon module as MUI builds it (createSvgIcon). If MUI changes how an icon is built, this fails instead of
 * every row button quietly falling back to an SvgIcon per instance.
 */
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import FirstPageIcon from '@mui/icons-material/FirstPage';
import { isValidElement } from 'react';
import { describe, expect, it } from 'vitest';
import { iconPathOf } from '../src/components/PlainIcon';

describe('plain icons', () => {
  it("reads the path of MUI's icons", () => {
    for (const Icon of [EditIcon, DeleteIcon, FirstPageIcon]) {
      const path = iconPathOf(Icon);
      expect(isValidElement(path)).toBe(true);
      const d = isValidElement<{ d?: unknown }>(path) ? path.props.d : undefined;
      expect(typeof d).toBe('string');
      expect(String(d)).toMatch(/^M/);
    }
    expect(iconPathOf(EditIcon)).not.toEqual(iconPathOf(DeleteIcon));
  });

  it('gives null for a component that is not a MUI icon', () => {
    const NotAnIcon = (() => null) as unknown as typeof EditIcon;
    expect(iconPathOf(NotAnIcon)).toBeNull();
  });
});
