import { phrases, type KeywordSet } from "./types.js";

export const tr: KeywordSet = {
  lang: "tr",
  name: "Turkish",
  match: "words",
  patterns: phrases(`
    nasıl çalış* | nasıl yapıl* | nasıl işle* | nerede | nereden | hangi dosya* | hangi fonksiyon* | hangi sınıf* | hangi metod*
    hangi modül* | kim çağır* | çağrıl* | çağıran | akış* | veri akışı | yaşam döngüsü | giriş noktası | ne olur | etkisi
    etkilen* | bağımlı* | bağlı olan | mimari* | yapısı | tanımlan* | tanımlı | uygulan*
  `),
};
