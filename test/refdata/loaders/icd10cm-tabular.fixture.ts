// A hand-made ICD-10-CM Tabular List in the CDC XML layout (icd10cm_tabular.xsd): a few chapters, sections and
// diags modelled on the FY2023 tabular, with notes at every level, an empty <note/>, sevenChrDefs at a category,
// at a subcategory and on a leaf, and a <note> inside a sevenChrDef. CRLF line endings, as the CDC files have.

export interface MiniTabularOptions {
  /** The `<version>` (fiscal year). */
  readonly version: number;
  /** XML appended inside category E11, to vary a release. */
  readonly extraE11?: string;
  /** The root start tag. */
  readonly root?: string;
}

/** Returns the XML text of the mini tabular. */
export function miniTabular({ version, extraE11 = '', root = '<ICD10CM.tabular>' }: MiniTabularOptions): string {
  return `<?xml version="1.0" encoding="utf-8"?>
${root}
  <version>${version}</version>
  <introduction>
    <introSection type="title">
      <title>ICD-10-CM TABULAR LIST of DISEASES and INJURIES</title>
    </introSection>
    <introSection type="instruction">
      <title>Includes:</title>
      <instruction>
        <note>The word 'Includes' appears immediately under certain categories.</note>
      </instruction>
    </introSection>
  </introduction>
  <chapter>
    <name>1</name>
    <desc>Certain infectious and parasitic diseases (A00-B99)</desc>
    <includes>
      <note>diseases generally recognized as communicable or transmissible</note>
    </includes>
    <excludes2>
      <note>carrier or suspected carrier of infectious disease (Z22.-)</note>
      <note>influenza and other acute respiratory infections (J00-J22)</note>
    </excludes2>
    <sectionIndex>
      <sectionRef first="A00" last="A09" id="A00-A09">
         Intestinal infectious diseases
      </sectionRef>
    </sectionIndex>
    <section id="A00-A09">
      <desc>Intestinal infectious diseases (A00-A09)</desc>
      <excludes1>
        <note>helminthiases (B65-B83)</note>
      </excludes1>
      <diag>
        <name>A00</name>
        <desc>Cholera</desc>
        <diag>
          <name>A00.0</name>
          <desc>Cholera due to Vibrio cholerae 01, biovar cholerae</desc>
          <inclusionTerm>
            <note>Classical cholera</note>
            <note/>
          </inclusionTerm>
        </diag>
        <diag>
          <name>A00.9</name>
          <desc>Cholera, unspecified</desc>
        </diag>
      </diag>
    </section>
  </chapter>
  <chapter>
    <name>4</name>
    <desc>Endocrine, nutritional and metabolic diseases (E00-E89)</desc>
    <excludes1>
      <note>transitory endocrine and metabolic disorders specific to newborn (P70-P74)</note>
    </excludes1>
    <section id="E08-E13">
      <desc>Diabetes mellitus (E08-E13)</desc>
      <diag>
        <name>E11</name>
        <desc>Type 2 diabetes mellitus</desc>
        <useAdditionalCode>
          <note>code to identify control using:</note>
          <note>insulin (Z79.4)</note>
        </useAdditionalCode>
        <excludes1>
          <note>diabetes mellitus due to underlying condition (E08.-)</note>
          <note>type 1 diabetes mellitus (E10.-)</note>
        </excludes1>
        <diag>
          <name>E11.3</name>
          <desc>Type 2 diabetes mellitus with ophthalmic complications</desc>
          <diag>
            <name>E11.37</name>
            <desc>Type 2 diabetes mellitus with diabetic macular edema, resolved following treatment</desc>
            <sevenChrNote>
              <note>One of the following 7th characters is to be assigned to code E11.37 to designate laterality of the disease:</note>
            </sevenChrNote>
            <sevenChrDef>
              <extension char="1">right eye</extension>
              <extension char="2">left eye</extension>
              <extension char="3">bilateral</extension>
              <extension char="9">unspecified eye</extension>
            </sevenChrDef>
          </diag>
        </diag>
        <diag>
          <name>E11.9</name>
          <desc>Type 2 diabetes mellitus without complications</desc>
        </diag>${extraE11}
      </diag>
    </section>
  </chapter>
  <chapter>
    <name>19</name>
    <desc>Injury, poisoning and certain other consequences of external causes (S00-T88)</desc>
    <notes>
      <note>Use secondary code(s) from Chapter 20, External causes of morbidity, to indicate cause of injury.</note>
    </notes>
    <section id="S70-S79">
      <desc>Injuries to the hip and thigh (S70-S79)</desc>
      <diag>
        <name>S72</name>
        <desc>Fracture of femur</desc>
        <sevenChrNote>
          <note>The appropriate 7th character is to be added to all codes from category S72</note>
        </sevenChrNote>
        <sevenChrDef>
          <extension char="A">initial encounter for closed fracture</extension>
          <extension char="B">initial encounter for open fracture type I or II</extension>
          <note>	initial encounter for open fracture NOS</note>
          <extension char="D">subsequent encounter for closed fracture with routine healing</extension>
          <extension char="S">sequela</extension>
        </sevenChrDef>
        <diag>
          <name>S72.0</name>
          <desc>Fracture of head and neck of femur</desc>
          <diag>
            <name>S72.00</name>
            <desc>Fracture of unspecified part of neck of femur</desc>
            <diag>
              <name>S72.001</name>
              <desc>Fracture of unspecified part of neck of right femur</desc>
            </diag>
          </diag>
        </diag>
      </diag>
    </section>
    <section id="T80-T88">
      <desc>Complications of surgical and medical care, not elsewhere classified (T80-T88)</desc>
      <useAdditionalCode>
        <note>code for adverse effect, if applicable, to identify drug (T36-T50 with fifth or sixth character 5)</note>
      </useAdditionalCode>
      <diag>
        <name>T81</name>
        <desc>Complications of procedures, not elsewhere classified</desc>
        <sevenChrDef>
          <extension char="A">initial encounter</extension>
          <extension char="D">subsequent encounter</extension>
          <extension char="S">sequela</extension>
        </sevenChrDef>
        <diag>
          <name>T81.4</name>
          <desc>Infection following a procedure</desc>
          <diag placeholder="true">
            <name>T81.40</name>
            <desc>Infection following a procedure, unspecified</desc>
          </diag>
        </diag>
      </diag>
      <diag>
        <name>T88</name>
        <desc>Other complications of surgical and medical care, not elsewhere classified</desc>
        <diag>
          <name>T88.7</name>
          <desc>Unspecified adverse effect of drug or medicament</desc>
          <excludes1>
            <note></note>
            <note>specified adverse effects of drugs and medicaments (A00-R94 and T80-T88.6, T88.8)</note>
          </excludes1>
        </diag>
      </diag>
    </section>
  </chapter>
</ICD10CM.tabular>
`.replace(/\n/g, '\r\n');
}
