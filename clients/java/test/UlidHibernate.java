/*
 * io.github.ulidpg.hibernate with Hibernate ORM 6 (jakarta.persistence):
 * UUID and String ids on ulid columns, persist, find, JPQL, a bulk of 50.
 * Run by test/scenarios/client_java.sh where ULID_HIBERNATE_CLASSPATH names
 * Hibernate 6's jars (not in Debian 12; skipped otherwise):
 *   java -cp <jars>:. UlidHibernate PORT DATABASE
 * Prints ok / not ok lines.
 */
import io.github.ulidpg.hibernate.UlidStringType;
import io.github.ulidpg.hibernate.UlidUuidType;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.util.UUID;
import org.hibernate.Session;
import org.hibernate.SessionFactory;
import org.hibernate.annotations.Type;
import org.hibernate.cfg.Configuration;

public class UlidHibernate {
	@Entity
	@Table(name = "uitems")
	public static class UItem {
		@Id
		@Type(UlidUuidType.class)
		@Column(columnDefinition = "ulid")
		public UUID id;
		public int n;
	}

	@Entity
	@Table(name = "sitems")
	public static class SItem {
		@Id
		@Type(UlidStringType.class)
		@Column(columnDefinition = "ulid")
		public String id;
		public int n;
	}

	static int failed = 0;

	static void check(String desc, Object expected, Object actual) {
		if (expected.equals(actual)) {
			System.out.println("ok - " + desc);
		} else {
			failed++;
			System.out.println("not ok - " + desc + " (expected " + expected + ", got " + actual + ")");
		}
	}

	public static void main(String[] args) {
		SessionFactory sf = new Configuration()
				.setProperty("hibernate.connection.url", "jdbc:postgresql://127.0.0.1:" + args[0] + "/" + args[1])
				.setProperty("hibernate.connection.username", "postgres")
				.addAnnotatedClass(UItem.class).addAnnotatedClass(SItem.class).buildSessionFactory();
		try (Session s = sf.openSession()) {
			s.doWork(c -> c.createStatement().execute("CREATE TABLE uitems (id ulid PRIMARY KEY, n int);"
					+ "CREATE TABLE sitems (id ulid PRIMARY KEY DEFAULT gen_ulid(), n int)"));
			UUID u = UUID.fromString("018eafc1-8435-0cf0-5803-c72d06e78011");
			s.beginTransaction();
			UItem a = new UItem();
			a.id = u;
			a.n = 1;
			s.persist(a);
			SItem b = new SItem();
			b.id = "01htqw311n1kr5g0y75m3ef00j";
			b.n = 2;
			s.persist(b);
			for (int i = 0; i < 50; i++) {
				UItem x = new UItem();
				x.id = UUID.randomUUID();
				x.n = 100 + i;
				s.persist(x);
			}
			s.getTransaction().commit();
			s.clear();
			check("persist and find with a UUID id", 1, s.find(UItem.class, u).n);
			check("... stored as the ULID of its bytes", "01HTQW311N1KR5G0Y75M3EF00H",
					s.createNativeQuery("SELECT CAST(id AS text) FROM uitems WHERE n = 1", String.class).getSingleResult());
			check("persist and find with a String id (any case)", 2, s.find(SItem.class, "01HTQW311N1KR5G0Y75M3EF00J").n);
			check("JPQL where id = :id with a UUID", 1L, s.createQuery("select count(i) from UlidHibernate$UItem i where i.id = :id", Long.class)
					.setParameter("id", u).getSingleResult());
			check("a bulk of 50 UUID ids", 51L, s.createQuery("select count(i) from UlidHibernate$UItem i", Long.class).getSingleResult());
		}
		sf.close();
		System.exit(failed == 0 ? 0 : 1);
	}
}
