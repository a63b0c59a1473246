import { phrases, type KeywordSet } from "./types.js";

export const nl: KeywordSet = {
  lang: "nl",
  name: "Dutch",
  match: "words",
  patterns: phrases(`
    hoe werkt | hoe werken | hoe wordt | hoe worden | waar wordt | waar worden | waar is | waar zijn | waar staat | in welk bestand
    welk bestand | welke functie | welke klasse | welke methode | welke module | wie roept | wat roept | aangeroepen | wie gebruikt
    gebruikt door | stroom | gegevensstroom | dataflow | levenscyclus | ingangspunt | wat gebeurt | impact | afhankelijk van
    hangt af van | architectuur | structuur van | gedefinieerd | geïmplementeerd | implementatie van | relatie tussen
  `),
};
