import { describe, expect, it } from "vitest";
import { KEYWORD_SETS } from "../../src/hook/keywords/index.js";
import { keywordMatcher, structuralKeyword } from "../../src/hook/structural.js";

// Per language: a structural question that its own keyword set catches, and ordinary prose that no
// language's set mistakes for one (the gate runs every set over every prompt).
const EXAMPLES: Record<string, { question: string; prose: string[] }> = {
  en: {
    question: "How does the session middleware store its data?",
    prose: ["Please fix this typo and commit it.", "Thanks, that looks great!"],
  },
  es: {
    question: "¿Dónde se define la función de login?",
    prose: ["Por favor corrige este error tipográfico.", "Gracias, se ve genial."],
  },
  pt: {
    question: "Como funciona o cache de sessões?",
    prose: ["Por favor, corrija este erro de digitação.", "Obrigado, ficou ótimo!"],
  },
  fr: {
    question: "Comment fonctionne le cache des sessions ?",
    prose: ["Merci, corrige juste la faute de frappe.", "Bonne journée à toi !"],
  },
  de: {
    question: "Wo wird das Passwort gehasht?",
    prose: ["Bitte behebe den Tippfehler in der README.", "Danke, sieht gut aus!"],
  },
  it: {
    question: "Come funziona la cache delle sessioni?",
    prose: ["Per favore correggi questo errore di battitura.", "Grazie mille, perfetto!"],
  },
  nl: {
    question: "Hoe werkt de sessiecache?",
    prose: ["Wil je deze typfout verbeteren?", "Bedankt, ziet er goed uit."],
  },
  pl: {
    question: "Gdzie jest zdefiniowana funkcja logowania?",
    prose: ["Popraw proszę tę literówkę.", "Dzięki, wygląda dobrze."],
  },
  tr: {
    question: "Oturum önbelleği nasıl çalışıyor?",
    prose: ["Lütfen bu yazım hatasını düzelt.", "Teşekkürler, harika görünüyor."],
  },
  vi: {
    question: "Bộ nhớ đệm phiên hoạt động như thế nào?",
    prose: ["Vui lòng sửa lỗi chính tả này.", "Cảm ơn, trông rất tốt."],
  },
  id: {
    question: "Bagaimana cara kerja cache sesi?",
    prose: ["Tolong perbaiki salah ketik ini.", "Terima kasih, sudah bagus."],
  },
  cs: { question: "Jak funguje mezipaměť relací?", prose: ["Oprav prosím tenhle překlep.", "Díky, vypadá to dobře."] },
  sv: { question: "Hur fungerar sessionscachen?", prose: ["Rätta gärna det här stavfelet.", "Tack, det ser bra ut."] },
  da: {
    question: "Hvordan fungerer session-cachen?",
    prose: ["Ret venligst denne tastefejl.", "Tak, det ser godt ud."],
  },
  nb: {
    question: "Hvor er innloggingsfunksjonen definert?",
    prose: ["Vennligst rett denne skrivefeilen.", "Takk, det ser bra ut."],
  },
  fi: {
    question: "Miten istuntovälimuisti toimii?",
    prose: ["Korjaa tämä kirjoitusvirhe, kiitos.", "Kiitos, näyttää hyvältä."],
  },
  ro: {
    question: "Cum funcționează cache-ul de sesiune?",
    prose: ["Te rog corectează această greșeală de tipar.", "Mulțumesc, arată bine."],
  },
  hu: {
    question: "Hogyan működik a munkamenet-gyorsítótár?",
    prose: ["Kérlek, javítsd ki ezt az elírást.", "Köszönöm, jól néz ki."],
  },
  ru: {
    question: "Где определяется функция входа?",
    prose: ["Пожалуйста, исправь эту опечатку.", "Спасибо, всё отлично."],
  },
  uk: { question: "Як працює кеш сесій?", prose: ["Будь ласка, виправ цю помилку.", "Дякую, все добре."] },
  el: {
    question: "Πού ορίζεται η συνάρτηση σύνδεσης;",
    prose: ["Παρακαλώ διόρθωσε αυτό το τυπογραφικό λάθος.", "Ευχαριστώ πολύ!"],
  },
  "zh-Hans": { question: "会话缓存是怎么工作的？", prose: ["请修复这个拼写错误。", "谢谢，看起来不错。"] },
  "zh-Hant": { question: "登入函式定義在哪裡？", prose: ["請修正這個拼字錯誤。", "謝謝，看起來很好。"] },
  ja: {
    question: "ログイン関数はどこで定義されていますか？",
    prose: ["このタイプミスを直してください。", "ありがとうございます、完璧です。"],
  },
  ko: { question: "세션 캐시는 어떻게 동작하나요?", prose: ["이 오타를 고쳐 주세요.", "감사합니다, 좋아 보여요."] },
  ar: {
    question: "أين يتم تعريف دالة تسجيل الدخول؟",
    prose: ["من فضلك صحح هذا الخطأ الإملائي.", "شكرا جزيلا، هذا رائع."],
  },
  he: {
    question: "איפה מוגדרת פונקציית ההתחברות?",
    prose: ["בבקשה תתקן את שגיאת ההקלדה הזו.", "תודה, זה נראה טוב."],
  },
  th: { question: "แคชของเซสชันทำงานอย่างไร", prose: ["ช่วยแก้คำที่พิมพ์ผิดนี้หน่อย", "ขอบคุณมากครับ"] },
  hi: {
    question: "लॉगिन फ़ंक्शन कहाँ परिभाषित है?",
    prose: ["कृपया इस टाइपो को ठीक करें।", "धन्यवाद, यह बहुत अच्छा है।"],
  },
};

describe("keyword sets", () => {
  it("cover the 29 languages, one set each, every one with examples here", () => {
    const tags = KEYWORD_SETS.map((s) => s.lang);
    expect(tags).toHaveLength(29);
    expect(new Set(tags).size).toBe(29);
    expect(tags.sort()).toEqual(Object.keys(EXAMPLES).sort());
  });

  for (const set of KEYWORD_SETS) {
    const example = EXAMPLES[set.lang]!;
    describe(`${set.name} (${set.lang})`, () => {
      it("catches a structural question", () => {
        expect(keywordMatcher([set])(example.question)).not.toBeNull();
        expect(structuralKeyword(example.question)).not.toBeNull();
      });
      it("stays silent on ordinary prose", () => {
        for (const prose of example.prose) expect(structuralKeyword(prose), prose).toBeNull();
      });
    });
  }
});

describe("keyword matching", () => {
  it("ignores accents, case and Arabic or Hebrew marks", () => {
    expect(structuralKeyword("DONDE SE DEFINE el login")?.lang).toBe("es");
    expect(structuralKeyword("WIE FUNKTIONIERT das?")?.lang).toBe("de");
    expect(structuralKeyword("أَيْنَ يتم تعريف الدالة")?.lang).toBe("ar");
  });

  it("matches inflections through a trailing *", () => {
    expect(structuralKeyword("Кто вызывает эту функцию?")?.pattern).toBe("кто вызывает");
    expect(structuralKeyword("Эта функция вызывается из двух мест")?.lang).toBe("ru");
  });

  it("reads whole words in spaced scripts, and substrings in unspaced ones", () => {
    expect(structuralKeyword("the workflow failed again")).toBeNull(); // "flow" inside a word
    expect(structuralKeyword("这个函数是怎么实现的")?.lang).toBe("zh-Hans");
  });

  it("does not read code, paths or links as prose", () => {
    expect(structuralKeyword("delete old_payment_flow and src/flow/index.ts")).toBeNull();
    expect(structuralKeyword("see `flow` and https://example.com/flow/trace")).toBeNull();
  });
});
