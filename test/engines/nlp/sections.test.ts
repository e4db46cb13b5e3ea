// Note sections: headings with a colon, or alone on their line in upper case; each runs to the next heading.
import { describe, expect, test } from 'vitest';
import { findSections, type Section } from '../../../src/engines/nlp/sections.js';

/** The section whose span holds an offset. */
const sectionAt = (sections: readonly Section[], offset: number): Section | undefined =>
  sections.find((s) => s.headingBegin <= offset && offset < s.end);

describe('findSections', () => {
  test('colon and upper-case headings, canonical names, spans to the next heading', () => {
    const text = 'CC: cough\nPMH: asthma, GERD\nFAMILY HISTORY\nMother with diabetes.\nAssessment and Plan: pneumonia';
    const sections = findSections(text);
    expect(sections.map((s) => s.name)).toEqual(['Chief Complaint', 'Past Medical History', 'Family History', 'Assessment and Plan']);
    expect(sections.map((s) => text.slice(s.headingBegin, s.headingEnd))).toEqual(['CC:', 'PMH:', 'FAMILY HISTORY', 'Assessment and Plan:']);
    expect(sectionAt(sections, text.indexOf('asthma'))).toMatchObject({ name: 'Past Medical History', historical: true, family: false });
    expect(sectionAt(sections, text.indexOf('diabetes'))).toMatchObject({ name: 'Family History', family: true });
    expect(sectionAt(sections, text.indexOf('pneumonia'))?.name).toBe('Assessment and Plan');
  });

  test('not headings: a known word in mixed case without a colon, unknown words with a colon, text without any', () => {
    expect(findSections('Plan\nfollow up in 2 weeks')).toEqual([]);
    expect(findSections('Note: patient is stable')).toEqual([]);
    expect(findSections('Denies chest pain.')).toEqual([]);
    expect(findSections('PLAN\nfollow up').map((s) => s.name)).toEqual(['Plan']);
    expect(findSections('Subjective: tired\nObjective: BP 130/80').map((s) => s.name)).toEqual(['Subjective', 'Objective']);
  });

  test('CRLF text: upper-case headings alone on their line, offsets into the text as given', () => {
    const text = 'PAST MEDICAL HISTORY\r\nasthma\r\nFAMILY HISTORY\r\ndiabetes';
    const sections = findSections(text);
    expect(sections.map((s) => [s.name, text.slice(s.headingBegin, s.headingEnd)])).toEqual([
      ['Past Medical History', 'PAST MEDICAL HISTORY'],
      ['Family History', 'FAMILY HISTORY'],
    ]);
    expect(sectionAt(sections, text.indexOf('diabetes'))?.family).toBe(true);
  });

  test('bare CR line breaks (HL7 v2 text) and a mix of LF, CRLF and CR', () => {
    const text = 'CHIEF COMPLAINT: chest pain\rFAMILY HISTORY: hypertension\rASSESSMENT: pneumonia';
    const sections = findSections(text);
    expect(sections.map((s) => s.name)).toEqual(['Chief Complaint', 'Family History', 'Assessment']);
    expect(sectionAt(sections, text.indexOf('hypertension'))?.family).toBe(true);
    expect(sectionAt(sections, text.indexOf('pneumonia'))?.name).toBe('Assessment');
    const mixed = 'PMH: asthma\nFH: diabetes\r\nPLAN\rrecheck';
    expect(findSections(mixed).map((s) => [s.name, mixed.slice(s.headingBegin, s.headingEnd)])).toEqual([
      ['Past Medical History', 'PMH:'],
      ['Family History', 'FH:'],
      ['Plan', 'PLAN'],
    ]);
  });
});
