// Prints the collation elements Java's Collator for Locale.US gives each ASCII character, as the
// C++ table of src/template/java_collation.cpp (FreeMarker's ?sort compares strings with it).
//   javac -d /tmp/coll tools/collation-table/JavaCollationTable.java
//   java -cp /tmp/coll JavaCollationTable
import java.text.CollationElementIterator;
import java.text.Collator;
import java.text.RuleBasedCollator;
import java.util.Locale;

public final class JavaCollationTable {
  public static void main(String[] args) {
    RuleBasedCollator collator = (RuleBasedCollator) Collator.getInstance(Locale.US);
    StringBuilder out = new StringBuilder();
    for (int ch = 0; ch < 128; ch++) {
      CollationElementIterator it = collator.getCollationElementIterator(String.valueOf((char) ch));
      int order = it.next();
      if (it.next() != CollationElementIterator.NULLORDER) throw new IllegalStateException("expansion at " + ch);
      out.append(String.format("{%d, %d, %d},", CollationElementIterator.primaryOrder(order),
          CollationElementIterator.secondaryOrder(order), CollationElementIterator.tertiaryOrder(order)));
      out.append(ch % 4 == 3 ? "\n" : " ");
    }
    System.out.print(out);
  }
}
